/**
 * The inputs the sandbox does not find, by rules a developer can guess (docs/frontend.md, "Trying
 * failures on the sandbox"). One rule per kind of input, so every action that reads a domain agrees.
 */

/** A domain nobody registered: its first label starts with "no-such-" or contains "unregistered", or its TLD is `.invalid`. */
export function isUnregisteredDomain(domain: string): boolean {
  const name = domain.trim().toLowerCase().replace(/\.$/, '');
  const first = name.split('.')[0] ?? '';
  return first.startsWith('no-such-') || first.includes('unregistered') || name.endsWith('.invalid');
}

/** A profile handle or username nobody holds: it starts with "no-such-" (or "no_such_", where a hyphen is not allowed). */
export function isUnknownHandle(handle: string): boolean {
  return /^@?no[-_.]such[-_.]/i.test(handle.trim());
}

/** The message the live service sends with its 400 when it finds nothing (the gateway reads it as NOT_FOUND). */
export const NOT_FOUND_MESSAGE = 'Not found: the service has no record for this input.';
