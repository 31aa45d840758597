/**
 * Documents that cannot rot: every ```graphql block of README.md and docs/*.md is valid against the schema
 * with deprecated fields refused, and every query in them runs against the sandbox in-process without
 * errors. A block may start with `# expect: <CODE>` (it must fail with that code) or `# variables: {…}`.
 * The README's first query must answer what the README shows. Links between the documents resolve, every
 * setting the code reads is in docs/configuration.md, every error code it sends is in docs/errors.md, every
 * metric it exports is in docs/operations.md, and no page reads as a diary.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import {
  astFromValue,
  Kind,
  NoDeprecatedCustomRule,
  parse,
  print,
  specifiedRules,
  validate,
  type DocumentNode,
  type OperationDefinitionNode,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createGateway, type Gateway } from '../src/gateway.js';
import { usesIncrementalDelivery } from '../src/incremental/index.js';
import { createLogger } from '../src/kernel/logger.js';
import { schema } from '../src/graph/index.js';
import { merged, type Payload } from './support/incremental.js';
import { ROOT } from './support/processes.js';

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

interface Block {
  /** `README.md:42`: the file and the line of the fence. */
  where: string;
  file: string;
  lang: string;
  source: string;
  expect: string | null;
  variables: Record<string, unknown> | undefined;
}

function blocks(file: string): Block[] {
  const found: Block[] = [];
  const lines = text(file).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    const source = body.join('\n');
    found.push({
      where: `${file}:${start + 1}`,
      file,
      lang: open[1]!,
      source,
      expect: /^# expect: ([A-Z_]+)\s*$/m.exec(body[0] ?? '')?.[1] ?? null,
      variables: /^# variables: (.+)$/.exec(body[0] ?? '')
        ? JSON.parse(/^# variables: (.+)$/.exec(body[0]!)![1]!)
        : undefined,
    });
  }
  return found;
}

const graphqlBlocks = DOCS.flatMap(blocks).filter((block) => block.lang === 'graphql');

/** Every string literal in src/ (and the image's entry point), for the settings, codes and metrics checks. */
function sourceTexts(dir = join(ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceTexts(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [readFileSync(join(dir, entry.name), 'utf8')]
        : [],
  );
}
const SOURCES = sourceTexts();
const matches = (pattern: RegExp) =>
  new Set(SOURCES.flatMap((source) => [...source.matchAll(pattern)].map((m) => m[1]!)));

describe('the graphql blocks of the README and docs/', () => {
  it('there are some, in the README and in the pages', () => {
    expect(graphqlBlocks.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(graphqlBlocks.filter((b) => b.file !== 'README.md').length).toBeGreaterThanOrEqual(8);
    // Marks stay rare: most examples must simply work.
    expect(graphqlBlocks.filter((b) => b.expect || b.variables).length).toBeLessThanOrEqual(
      Math.ceil(graphqlBlocks.length / 4),
    );
  });

  it.each(graphqlBlocks.map((b) => [b.where, b] as const))(
    '%s is valid against the schema, with no deprecated field',
    (_where, block) => {
      const document = parse(block.source);
      const errors = validate(schema, document, [...specifiedRules, NoDeprecatedCustomRule]);
      expect(errors.map((e) => e.message)).toEqual([]);
      for (const definition of document.definitions)
        expect(definition.kind, 'operations only, named').toBe(Kind.OPERATION_DEFINITION);
      for (const operation of document.definitions as OperationDefinitionNode[])
        expect(operation.name?.value, 'a named operation').toBeTruthy();
    },
  );
});

describe('the operations of the README and docs/ against the sandbox, in-process', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await createGateway(loadConfig({ LOG_LEVEL: 'silent' }), createLogger('silent'));
  });
  afterAll(() => gateway?.close());

  /** One operation through Yoga, as a client sends it; @defer/@stream over multipart/mixed, merged as a client would. */
  async function run(
    document: DocumentNode,
    source: string,
    operationName: string,
    variables?: Record<string, unknown>,
  ) {
    const incremental = usesIncrementalDelivery(document);
    const res = await gateway.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: incremental ? 'multipart/mixed' : 'application/graphql-response+json, application/json',
      },
      body: JSON.stringify({ query: source, operationName, variables }),
    });
    const type = res.headers.get('content-type') ?? '';
    const body = await res.text();
    if (!type.startsWith('multipart/mixed'))
      return {
        status: res.status,
        parts: 1,
        ...(JSON.parse(body) as { data?: any; errors?: any[]; extensions?: any }),
      };
    const boundary = /boundary="?([^";]+)"?/.exec(type)![1]!;
    const payloads: Payload[] = body
      .split(`--${boundary}`)
      .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).trim())
      .filter((json) => json.startsWith('{'))
      .map((json) => ({ body: JSON.parse(json), at: 0 }));
    const { data, errors } = merged(payloads);
    return {
      status: res.status,
      parts: payloads.length,
      data,
      errors: errors.length > 0 ? errors : undefined,
      extensions: payloads.at(-1)?.body.extensions,
    };
  }

  it("the README's first query answers what the README shows (on a gateway that has cached nothing yet)", async () => {
    const readme = blocks('README.md');
    const first = readme.findIndex((b) => b.lang === 'graphql');
    const shown = readme[first + 1]!;
    expect(shown.lang).toBe('json');
    const document = parse(readme[first]!.source);
    const name = (document.definitions[0] as OperationDefinitionNode).name!.value;
    const answer = await run(document, readme[first]!.source, name);
    expect(answer).toMatchObject({ status: 200 });
    expect({ data: answer.data, extensions: answer.extensions }).toEqual(JSON.parse(shown.source));
  });

  for (const block of graphqlBlocks) {
    const document = parse(block.source);
    for (const operation of document.definitions as OperationDefinitionNode[]) {
      if (operation.operation !== 'query') continue;
      const name = operation.name!.value;
      it(`${block.where} ${name} ${block.expect ? `fails with ${block.expect}` : 'runs without errors'}`, async () => {
        const answer = await run(document, block.source, name, block.variables);
        if (block.expect) {
          expect(answer.errors?.map((e: any) => e.extensions?.code)).toContain(block.expect);
          return;
        }
        expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
        expect(answer.status).toBe(200);
        expect(Object.keys(answer.data ?? {}).length).toBeGreaterThan(0);
        if (usesIncrementalDelivery(document)) expect(answer.parts).toBeGreaterThan(1);
      });
    }
  }
});

describe('the pages agree with the code', () => {
  it('every relative link points at a file that exists, and every #anchor at a heading of it', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const [, target] of text(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#');
        const resolved = path ? join(dirname(join(ROOT, file)), path) : join(ROOT, file);
        if (!existsSync(resolved)) broken.push(`${file}: ${target}`);
        else if (anchor && resolved.endsWith('.md') && !headings(relative(ROOT, resolved)).includes(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('docs/configuration.md describes every setting the code reads, and nothing it does not', () => {
    const read = new Set([
      ...matches(/\b(?:int|string|bool|seconds|oneOf|list|flag)\(\s*'([A-Z][A-Z0-9_]+)'/g),
      ...matches(/\benv\.([A-Z][A-Z0-9_]+)/g),
      ...matches(/'(OTEL_[A-Z_]+)'/g),
    ]);
    // Only what an operator tunes is a setting; internals are named constants next to their code. Signed
    // tokens brought eight (issuer, key set, audience, secret, client claim, scope, public URL, anonymous access);
    // live queries four (refresh intervals, the two bounds on open streams, the sandbox's moving market).
    // The standard OpenTelemetry variables are the SDK's, with its names and defaults: not counted.
    expect([...read].filter((name) => !name.startsWith('OTEL_')).length).toBeLessThanOrEqual(72);
    const page = text('docs/configuration.md');
    const documented = new Set(
      [...page.matchAll(/^\| (.+?) \|/gm)].flatMap((m) =>
        [...m[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((n) => n[1]!),
      ),
    );
    expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
    const entry = text('deploy/entrypoint.sh');
    // Read by the OpenTelemetry SDK itself: the exporter's OTEL_EXPORTER_OTLP_* and the resource detector's two.
    const bySdk = (name: string) =>
      /^OTEL_EXPORTER_OTLP_/.test(name) || name === 'OTEL_SERVICE_NAME' || name === 'OTEL_RESOURCE_ATTRIBUTES';
    const elsewhere = (name: string) => entry.includes(name) || name === 'NODE_OPTIONS' || bySdk(name);
    expect([...documented].filter((name) => !read.has(name) && !elsewhere(name)).sort()).toEqual([]);
  });

  it('docs/errors.md lists every error code the gateway sends', () => {
    const sent = new Set([
      ...matches(/\b(?:rejection|ActionError)\(\s*'([A-Z][A-Z_]+)'/g),
      ...matches(/\bcode: '([A-Z][A-Z_]+)'/g),
      // The lookup errors' codes, listed as `ERROR_CODES = [...]`.
      ...SOURCES.flatMap((source) =>
        [...(/ERROR_CODES = \[([^\]]+)\]/.exec(source)?.[1]?.matchAll(/'([A-Z_]+)'/g) ?? [])].map((m) => m[1]!),
      ),
    ]);
    const page = text('docs/errors.md');
    expect(sent.size).toBeGreaterThan(15);
    expect([...sent].filter((code) => !page.includes(`\`${code}\``)).sort()).toEqual([]);
  });

  it('docs/operations.md lists every metric the gateway exports', () => {
    const exported = matches(/\bname: '(lookup_graph_[a-z_]+)'/g);
    expect(exported.size).toBeGreaterThan(10);
    const page = text('docs/operations.md');
    expect([...exported].filter((name) => !page.includes(name)).sort()).toEqual([]);
  });

  it('no page reads as a diary: no sessions, issue numbers, commit hashes or before/after runs', () => {
    const diary = [
      /\bsession\b/i,
      /\bissue #?\d+/i,
      /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}\b/,
      /\bbefore\b.*→.*\bafter\b/i,
      /\bA\/B\b/,
    ];
    const found = DOCS.flatMap((file) =>
      text(file)
        .split('\n')
        .flatMap((line, i) =>
          diary.some((pattern) => pattern.test(line)) ? [`${file}:${i + 1}: ${line.trim().slice(0, 100)}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it("the README's root-field table names every root field with its arguments and return type as the schema prints them", () => {
    const section = text('README.md').split('## Root fields')[1]!.split('\n## ')[0]!;
    const rows = section.split('\n').filter((line) => /^\| `/.test(line));
    const documented = new Map<string, { args: string; returns: string }>();
    for (const row of rows) {
      const [fields, args, returns] = row.split(' | ').map((cell) => cell.replace(/^\| /, ''));
      // `node` / `nodes`: one row for two fields, its cells split the same way.
      const split = (cell: string) => cell.split(' / ');
      const sorted = (list: string) => list.split(', ').sort().join(', ');
      for (const [i, field] of split(fields!).entries()) {
        documented.set(field.replace(/`/g, ''), { args: sorted(split(args!)[i]!), returns: split(returns!)[i]! });
      }
    }
    const printed = new Map(
      Object.values(schema.getQueryType()!.getFields()).map((field) => [
        field.name,
        {
          args: field.args
            .map(
              (arg) =>
                `\`${arg.name}: ${arg.type}${arg.defaultValue === undefined ? '' : ` = ${print(astFromValue(arg.defaultValue, arg.type)!)}`}\``,
            )
            .sort()
            .join(', '),
          returns: `\`${field.type}\``,
        },
      ]),
    );
    // Federation's `_entities`/`_service` are not in the public schema; every other root field is in the table, as printed.
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(printed));
  });

  it('the README stays a front door: at most 250 lines', () => {
    expect(text('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });
});

/** The anchors GitHub makes for a page's headings. */
function headings(file: string): string[] {
  return [...text(file).matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  );
}
