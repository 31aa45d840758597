import type { Raw } from '../../schema/read.js';

/**
 * The keys of an upstream object that the schema does not model (the live service adds some, e.g.
 * `channels`, `country`, `available_countries`, `external_links`), as one object; null when none.
 */
export function unmodelledKeys(raw: Raw, modelled: ReadonlySet<string>): Raw | null {
  const rest: Raw = {};
  let found = false;
  for (const [key, value] of Object.entries(raw)) {
    if (modelled.has(key)) continue;
    rest[key] = value;
    found = true;
  }
  return found ? rest : null;
}

export const ADDITIONAL_FIELDS_DESCRIPTION =
  'Upstream keys of this object that the schema does not model yet (seen live: channels, country, available_countries, external_links), as one JSON object keyed by the upstream names; null when there are none.';
