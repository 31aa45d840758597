export { SandboxInputError } from './sample-input-error.js';
import { ACTIONS } from './all.js';
import type { SandboxAnswer } from './descriptor.js';

/** How the sandbox answers one action: each action's descriptor holds its `sandbox` answer. */
export type SandboxAction = SandboxAnswer;

/** The sandbox's answer for every action, by action name. */
export const SANDBOX_ACTIONS: Readonly<Record<string, SandboxAction>> = Object.fromEntries(ACTIONS.map((action) => [action.action, action.sandbox]));
