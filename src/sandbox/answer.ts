import type { SampleImages } from './data/images.js';

/** How the built-in sandbox answers the action. */
export interface SandboxAnswer {
  /** Body fields the live service requires (all of them, in practice). */
  required: string[];
  /**
   * The envelope minus `status`: `response` and any sibling the action sends. Image URLs come from
   * `images` (the answering sandbox's own; tests replaying samples elsewhere may leave it out). `moment`: with
   * a moving market (SANDBOX_MARKET=moving), how many calls of the action came before, for values that move
   * from call to call (stock prices); undefined: the values stand still.
   */
  respond(body: Record<string, unknown>, images?: SampleImages, moment?: number): Record<string, unknown>;
}
