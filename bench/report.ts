/** The shapes of bench/results.md: its rows, their targets, and the tables they are printed in. */

export interface Target {
  /** What is asked, e.g. "≤ 2× (a2)". */
  text: string;
  met: boolean;
}

/** One row of a table: a short id the notes and docs refer to, and its cells. */
export interface Row {
  id: string;
  scenario: string;
  cells: string[];
  target?: Target;
  failures: number | null;
}

/** A guard rail of the product, summarised at the top of the results from the row that measures it. */
export interface GuardRail {
  id: string;
  what: string;
  measured: string;
  target: Target;
}

const targetCell = (target?: Target) => (target ? `${target.text}: ${target.met ? 'met' : '**not met**'}` : '');

/** A Markdown table: the row's id, its scenario, `columns` (one per cell), its target and its failed requests. */
export function table(columns: string[], rows: Row[]): string {
  const header = ['row', 'scenario', ...columns, 'target', 'failed requests'];
  const lines = rows.map((row) => [
    `(${row.id})`,
    row.scenario,
    ...row.cells,
    targetCell(row.target),
    row.failures === null ? '' : String(row.failures),
  ]);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export function guardRailTable(rails: GuardRail[]): string {
  const header = ['row', 'guard rail', 'measured', 'target', ''];
  const lines = rails.map((rail) => [
    `(${rail.id})`,
    rail.what,
    rail.measured,
    rail.target.text,
    rail.target.met ? 'met' : '**not met**',
  ]);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
