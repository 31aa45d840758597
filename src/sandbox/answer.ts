import type { SampleImages } from './data/images.js';

/** How the built-in sandbox answers the action. */
export interface SandboxAnswer {
  /** Body fields the live service requires (all of them, in practice). */
  required: string[];
  /**
   * The envelope minus `status`: `response` and any sibling the action sends. Image URLs come from
   * `images` (the answering sandbox's own; tests replaying samples elsewhere may leave it out).
   */
  respond(body: Record<string, unknown>, images?: SampleImages): Record<string, unknown>;
}
