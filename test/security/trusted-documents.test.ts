import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedDocuments } from '../../src/security/trusted-documents-cli.js';
import { EXAMPLES_DIR, loadExamples } from '../../src/examples.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { expectRefused, sandboxCalls } from './support.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('trusted documents (TRUSTED_DOCUMENTS_FILE, written by npm run trusted-documents)', () => {
  let gw: RunningGateway;
  const domainInfo = loadExamples().find((example) => example.name.includes('domain-info'))!;
  beforeAll(async () => {
    const file = join(tmpdir(), `lookup-graph-trusted-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(trustedDocuments([EXAMPLES_DIR])));
    gw = await startGateway({ TRUSTED_DOCUMENTS_FILE: file });
  });
  afterAll(async () => {
    await gw.close();
  });

  const persisted = (hash: string) => JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });

  it('the file holds every example operation under the sha256 of its text', () => {
    const documents = trustedDocuments([EXAMPLES_DIR]);
    expect(Object.keys(documents)).toHaveLength(loadExamples().length);
    for (const [hash, text] of Object.entries(documents)) expect(sha256(text)).toBe(hash);
  });

  it('a trusted document runs by its hash', async () => {
    const res = await gw.post(persisted(sha256(domainInfo.query)));
    expect(res.status).toBe(200);
    expect(res.body.data!.domainInfo.domainName).toBe('example.com');
  });

  it('an unknown hash → 400 PERSISTED_QUERY_NOT_FOUND', async () => {
    const before = sandboxCalls(gw);
    expectRefused(await gw.post(persisted(sha256('{ domainInfo(domain: "evil.com") { domainName } }'))), 400, 'PERSISTED_QUERY_NOT_FOUND');
    expect(sandboxCalls(gw) - before).toBe(0);
  });

  it('a raw query, even one of the trusted documents → 400 PERSISTED_QUERY_ONLY', async () => {
    const before = sandboxCalls(gw);
    expectRefused(await gw.query(domainInfo.query), 400, 'PERSISTED_QUERY_ONLY');
    expect(sandboxCalls(gw) - before).toBe(0);
  });

  it('neither a query nor a hash → 400 PERSISTED_QUERY_ID_REQUIRED', async () => {
    expectRefused(await gw.post(JSON.stringify({ variables: {} })), 400, 'PERSISTED_QUERY_ID_REQUIRED');
  });
});
