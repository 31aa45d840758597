import type { ActionDescriptor } from './descriptor.js';
import * as registry from './registry.js';

/** Every action's descriptor, from the registry. */
export const ACTIONS: readonly ActionDescriptor[] = Object.values(registry);

/** The descriptor of an action by its upstream name. */
export function actionNamed(action: string): ActionDescriptor | undefined {
  return ACTIONS.find((descriptor) => descriptor.action === action);
}
