/**
 * Adds `value` to a response's Vary header. Set rather than appended: an append turns whatwg-node's
 * headers into a Map that it then writes to the socket one header at a time.
 */
export function addVary(headers: Headers, value: string): void {
  const vary = headers.get('vary');
  headers.set('vary', vary ? `${vary}, ${value}` : value);
}
