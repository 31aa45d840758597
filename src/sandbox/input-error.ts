/** Thrown by a sample for input the live service rejects; the sandbox answers with the 400 envelope. */
export class SandboxInputError extends Error {}
