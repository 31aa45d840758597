/**
 * The JSON text of values read from the wire, remembered where they were parsed (the upstream client
 * parsed it), so the cache can store an entry without serialising it again. Weak: the note goes with
 * the value, and the text is let go with it.
 */
const texts = new WeakMap<object, string>();

export function rememberJsonText(value: object, text: string): void {
  texts.set(value, text);
}

/** The JSON of `value`: the text it was parsed from when it came from the wire, else serialised now. */
export function jsonTextOf(value: unknown): string {
  return (value !== null && typeof value === 'object' ? texts.get(value) : undefined) ?? JSON.stringify(value);
}
