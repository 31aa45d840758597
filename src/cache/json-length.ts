/**
 * The JSON length of values read from the wire, remembered where they were parsed (the upstream
 * client knows the length of the text it parsed), so the memory cache can size an entry without
 * serialising it again. Weak: the note goes with the value.
 */
const lengths = new WeakMap<object, number>();

export function rememberJsonLength(value: object, length: number): void {
  lengths.set(value, length);
}

/** The remembered JSON length of `value`, or undefined when it was not read from the wire. */
export function jsonLengthOf(value: unknown): number | undefined {
  return value !== null && typeof value === 'object' ? lengths.get(value) : undefined;
}
