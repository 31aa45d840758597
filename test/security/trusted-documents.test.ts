import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printExecutableGraphQLDocument } from '@graphql-tools/documents';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { trustedDocuments } from '../../src/security/trusted-documents-cli.js';
import { persistedDocumentsOf } from '../../src/security/trusted-documents.js';
import { EXAMPLES_DIR, loadExamples } from '../../src/server/examples.js';
import { configProblems } from '../support/config.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { expectRefused, sandboxCalls } from './support.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const dir = mkdtempSync(join(tmpdir(), `lookup-graph-trusted-${process.pid}-`));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fileOf = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

describe('npm run trusted-documents: hashes as codegen and Apollo do, reads their files', () => {
  it('one document per operation, printed as codegen prints it, keyed sha256:<hex> of that text', () => {
    const documents = trustedDocuments([EXAMPLES_DIR]);
    const operations = loadExamples().flatMap((example) =>
      parse(example.query).definitions.filter((d) => d.kind === 'OperationDefinition'),
    );
    expect(Object.keys(documents)).toHaveLength(operations.length);
    for (const [id, text] of Object.entries(documents)) {
      expect(id).toBe(`sha256:${sha256(text)}`);
      expect(text).not.toContain('#'); // comments are not part of the hashed text
      expect(printExecutableGraphQLDocument(parse(text))).toBe(text); // already in the stable printed form
    }
  });

  it('the id does not depend on comments, whitespace or field order; fragments used travel with the operation', () => {
    const a = persistedDocumentsOf([
      '# a comment\nquery Q { domainInfo(domain: "a.com") { ...F isRegistered } }',
      'fragment F on DomainRecord { domainName }',
    ]);
    const b = persistedDocumentsOf([
      'query Q{domainInfo(domain:"a.com"){isRegistered ...F}} fragment F on DomainRecord{domainName} fragment Unused on DomainRecord{expiresOn}',
    ]);
    expect(Object.keys(a)).toEqual(Object.keys(b));
    expect(Object.values(a)[0]).toBe(
      'fragment F on DomainRecord { domainName } query Q { domainInfo(domain: "a.com") { isRegistered ...F } }',
    );
  });

  it('--add-typename adds __typename to every selection set, as urql, Apollo Client and codegen do', () => {
    const [text] = Object.values(
      persistedDocumentsOf(['query Q { company(domain: "a.com") { name metrics { marketCap } } }'], {
        addTypename: true,
      }),
    );
    expect(text).toBe(
      'query Q { __typename company(domain: "a.com") { __typename metrics { __typename marketCap } name } }',
    );
  });

  it("gives the same ids and documents as GraphQL Code Generator's client preset wrote for the example app", () => {
    const app = fileURLToPath(new URL('../../examples/web/', import.meta.url));
    const codegen = JSON.parse(readFileSync(`${app}persisted-documents.json`, 'utf8')) as Record<string, string>;
    expect(Object.keys(codegen).length).toBeGreaterThan(0);
    expect(trustedDocuments([`${app}src/graphql`], { addTypename: true })).toEqual(codegen);
  });

  it("reads codegen's persisted-documents.json and Apollo's manifest, and refuses an id that is not its document's", () => {
    const doc = 'query A { __typename }';
    const codegen = fileOf('codegen.json', { [`sha256:${sha256(doc)}`]: doc });
    const apollo = fileOf('manifest.json', {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: sha256('query B { __typename }'), name: 'B', type: 'query', body: 'query B { __typename }' }],
    });
    expect(trustedDocuments([codegen, apollo])).toEqual({
      [`sha256:${sha256(doc)}`]: doc,
      [`sha256:${sha256('query B { __typename }')}`]: 'query B { __typename }',
    });
    const wrong = fileOf('wrong.json', { [`sha256:${sha256('query X { __typename }')}`]: doc });
    expect(() => trustedDocuments([wrong])).toThrow(/is not the sha256 of its document/);
  });
});

describe('TRUSTED_DOCUMENTS_FILE formats', () => {
  const doc = 'query A { __typename }';
  it.each([
    ['codegen client preset ("sha256:<hex>" keys)', { [`sha256:${sha256(doc)}`]: doc }],
    ['bare hex keys', { [sha256(doc)]: doc }],
    [
      'Apollo persisted-query manifest',
      {
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [{ id: sha256(doc), name: 'A', type: 'query', body: doc }],
      },
    ],
  ])('loads %s', (_name, content) => {
    const file = fileOf(`format-${Math.random().toString(36).slice(2)}.json`, content);
    expect([...loadConfig({ TRUSTED_DOCUMENTS_FILE: file }).security.trustedDocuments!.entries()]).toEqual([
      [sha256(doc), doc],
    ]);
  });

  it.each([
    [
      'an sha1 id (codegen hashAlgorithm: sha1)',
      { [createHash('sha1').update(doc).digest('hex')]: doc },
      /is not a sha256 id/,
    ],
    [
      'a manifest of another version',
      { format: 'apollo-persisted-query-manifest', version: 2, operations: [] },
      /must have "version": 1/,
    ],
    [
      "a manifest operation whose id is not its body's",
      {
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [{ id: sha256('x'), name: 'A', body: doc }],
      },
      /is not the sha256 of its document/,
    ],
    ['a document that does not parse', { [sha256('query {')]: 'query {' }, /does not parse/],
    ['a list', [doc], /must be a JSON object/],
  ])('refuses %s at start-up', (_name, content, problem) => {
    const file = fileOf(`bad-${Math.random().toString(36).slice(2)}.json`, content);
    const problems = configProblems({ TRUSTED_DOCUMENTS_FILE: file });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
  });
});

describe('trusted documents at the gateway: every way clients name a document', () => {
  let gw: TestGateway;
  const documents = trustedDocuments([EXAMPLES_DIR]);
  const [domainInfoId, domainInfoText] = Object.entries(documents).find(
    ([, text]) => text.includes('domainInfo(domain: "example.com")') && text.startsWith('query DomainInfo'),
  )!;
  const hex = domainInfoId.slice('sha256:'.length);
  beforeAll(async () => {
    gw = await startGateway({ TRUSTED_DOCUMENTS_FILE: fileOf('gateway.json', documents) });
  });
  afterAll(async () => {
    await gw.close();
  });

  const persisted = (hash: string) =>
    JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });

  it.each([
    ['documentId "sha256:<hex>" (codegen, GraphQL over HTTP)', () => JSON.stringify({ documentId: domainInfoId })],
    ['documentId as bare hex', () => JSON.stringify({ documentId: hex })],
    ['extensions.persistedQuery.sha256Hash (Apollo)', () => persisted(hex)],
    [
      'extensions.persistedQuery.sha256Hash in the sha256: form (urql persistedExchange with codegen hashes)',
      () => persisted(domainInfoId),
    ],
  ])('runs by %s', async (_name, body) => {
    const res = await gw.post(body());
    expect(res.status).toBe(200);
    expect(res.body.data!.domainInfo.domainName).toBe('example.com');
  });

  it('runs a GET with documentId and the CSRF header', async () => {
    const res = await gw.fetch(`/graphql?documentId=${encodeURIComponent(domainInfoId)}`, {
      headers: { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': '1' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.domainInfo.domainName).toBe('example.com');
  });

  it('an unknown id, or an id of another algorithm → 400 PERSISTED_QUERY_NOT_FOUND, no call', async () => {
    const before = sandboxCalls(gw);
    expectRefused(
      await gw.post(
        JSON.stringify({ documentId: `sha256:${sha256('{ domainInfo(domain: "evil.com") { domainName } }')}` }),
      ),
      400,
      'PERSISTED_QUERY_NOT_FOUND',
    );
    expectRefused(
      await gw.post(persisted(sha256('{ domainInfo(domain: "evil.com") { domainName } }'))),
      400,
      'PERSISTED_QUERY_NOT_FOUND',
    );
    expectRefused(
      await gw.post(JSON.stringify({ documentId: `sha1:${createHash('sha1').update(domainInfoText).digest('hex')}` })),
      400,
      'PERSISTED_QUERY_NOT_FOUND',
    );
    expect(sandboxCalls(gw) - before).toBe(0);
  });

  it('a raw query, even one of the trusted documents → 400 PERSISTED_QUERY_ONLY', async () => {
    const before = sandboxCalls(gw);
    expectRefused(await gw.query(domainInfoText), 400, 'PERSISTED_QUERY_ONLY');
    expect(sandboxCalls(gw) - before).toBe(0);
  });

  it('neither a query nor an id → 400 PERSISTED_QUERY_ID_REQUIRED', async () => {
    expectRefused(await gw.post(JSON.stringify({ variables: {} })), 400, 'PERSISTED_QUERY_ID_REQUIRED');
  });
});
