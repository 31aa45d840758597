import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configProblems } from '../support/config.js';
import { loadConfig } from '../../src/config.js';
import { hashApiKey } from '../../src/security/api-keys.js';

const UPSTREAM = { ACTION_BASE_URL: 'https://api.example.com', ACTION_TOKEN: 't' };

describe('security settings', () => {
  it('development defaults keep npm start + GraphiQL open, with safe limits', () => {
    const { security } = loadConfig({});
    expect(security.auth).toEqual({
      mode: 'none',
      apiKeyHashes: [],
      accounts: new Map(),
      names: new Map(),
      tokens: null,
      anonymousTrustedDocuments: false,
    });
    expect(security.introspection).toBe(true);
    expect(security.graphiql).toBe(true);
    expect(security.hideSuggestions).toBe(false);
    expect(security.limits).toEqual({
      maxRequestBytes: 102_400,
      maxTokens: 2000,
      maxDepth: 8,
      maxInputDepth: 8,
      maxAliases: 30,
      maxRepeatedFields: 20,
      maxRootFields: 20,
      maxDirectives: 20,
      maxBatchOperations: 0,
      documentCacheBytes: 8 * 1024 * 1024,
    });
    expect(security.rateLimit.perMinute).toBe(600);
    expect(security.corsOrigins).toEqual([]);
    expect(security.trustedDocuments).toBeNull();
  });

  it('production defaults close what development opens', () => {
    const { security } = loadConfig({ NODE_ENV: 'production', GATEWAY_API_KEY_HASHES: hashApiKey('k'), ...UPSTREAM });
    expect(security.auth.mode).toBe('api-key');
    expect(security.introspection).toBe(false);
    expect(security.graphiql).toBe(false);
    expect(security.hideSuggestions).toBe(true);
  });

  it('reads every setting', () => {
    const keys = join(tmpdir(), `lookup-graph-config-keys-${process.pid}.txt`);
    writeFileSync(keys, `${hashApiKey('b')}  # client b\n\n`);
    const { security } = loadConfig({
      GATEWAY_API_KEY_HASHES: ` ${hashApiKey('a').toUpperCase()} `,
      GATEWAY_API_KEYS_FILE: keys,
      MAX_REQUEST_BYTES: '2048',
      MAX_DEPTH: '5',
      MAX_ROOT_FIELDS: '3',
      MAX_BATCH_OPERATIONS: '10',
      ENABLE_INTROSPECTION: 'false',
      CLIENT_RATE_LIMIT_PER_MINUTE: '60',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: 'x:',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:3000/',
    });
    expect(security.auth).toEqual({
      mode: 'api-key',
      apiKeyHashes: [hashApiKey('a'), hashApiKey('b')],
      accounts: new Map(),
      names: new Map(),
      tokens: null,
      anonymousTrustedDocuments: false,
    });
    rmSync(keys);
    expect(security.limits).toEqual({
      maxRequestBytes: 2048,
      maxTokens: 2000,
      maxDepth: 5,
      maxInputDepth: 8,
      maxAliases: 30,
      maxRepeatedFields: 20,
      maxRootFields: 3,
      maxDirectives: 20,
      maxBatchOperations: 10,
      documentCacheBytes: 8 * 1024 * 1024,
    });
    expect([security.introspection, security.graphiql, security.hideSuggestions]).toEqual([false, false, true]);
    expect(security.rateLimit).toEqual({ perMinute: 60, redisUrl: 'redis://127.0.0.1:6379', redisPrefix: 'x:rate:' });
    expect(security.persistedQueries.redisPrefix).toBe('x:apq:');
    expect(security.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:3000']);
  });

  it('GATEWAY_AUTH=forward and =none are explicit choices', () => {
    expect(loadConfig({ GATEWAY_AUTH: 'forward' }).security.auth.mode).toBe('forward');
    expect(loadConfig({ NODE_ENV: 'production', ...UPSTREAM, GATEWAY_AUTH: 'none' }).security.auth.mode).toBe('none');
  });

  it('loads a trusted-documents file, checking every hash', () => {
    const file = join(tmpdir(), `lookup-graph-config-trusted-${process.pid}.json`);
    const doc = '{ __typename }';
    writeFileSync(file, JSON.stringify({ [hashApiKey(doc)]: doc }));
    expect([...loadConfig({ TRUSTED_DOCUMENTS_FILE: file }).security.trustedDocuments!.values()]).toEqual([doc]);
    writeFileSync(file, JSON.stringify({ ['0'.repeat(64)]: doc }));
    expect(configProblems({ TRUSTED_DOCUMENTS_FILE: file })).toEqual([
      `TRUSTED_DOCUMENTS_FILE: "0000000000000000…" is not the sha256 of its document`,
    ]);
    rmSync(file);
  });

  it.each([
    [{ MAX_DEPTH: '0' }, 'MAX_DEPTH must be a whole number from 1 to 100, got "0"'],
    [{ MAX_REQUEST_BYTES: '10' }, 'MAX_REQUEST_BYTES must be a whole number from 1024 to 67108864, got "10"'],
    [{ MAX_BATCH_OPERATIONS: '5000' }, 'MAX_BATCH_OPERATIONS must be a whole number from 0 to 1000, got "5000"'],
    [
      { CLIENT_RATE_LIMIT_PER_MINUTE: 'many' },
      'CLIENT_RATE_LIMIT_PER_MINUTE must be a whole number from 0 to 10000000, got "many"',
    ],
    [{ ENABLE_INTROSPECTION: 'yes' }, 'ENABLE_INTROSPECTION must be true or false, got "yes"'],
    [{ GATEWAY_AUTH: 'basic' }, 'GATEWAY_AUTH must be one of api-key, forward, none, got "basic"'],
    [
      { GATEWAY_AUTH: 'api-key' },
      'GATEWAY_AUTH=api-key needs GATEWAY_API_KEY_HASHES or GATEWAY_API_KEYS_FILE (sha256 hex digests of the keys), or JWT_ISSUER or JWT_JWKS_URL (signed tokens)',
    ],
    [
      { GATEWAY_API_KEY_HASHES: 'my-plain-key' },
      'GATEWAY_API_KEY_HASHES must hold sha256 hex digests of the keys (64 hex characters), got "my-plain-key…"',
    ],
    [
      { GATEWAY_API_KEYS_FILE: '/nonexistent/keys.txt' },
      'GATEWAY_API_KEYS_FILE cannot be read: ENOENT /nonexistent/keys.txt',
    ],
    [
      { TRUSTED_DOCUMENTS_FILE: '/nonexistent/trusted.json' },
      'TRUSTED_DOCUMENTS_FILE cannot be read (ENOENT): /nonexistent/trusted.json',
    ],
    [
      { CORS_ORIGINS: '*' },
      'CORS_ORIGINS must list origins such as https://app.example.com (no path, no wildcard), got "*"',
    ],
    [
      { CORS_ORIGINS: 'https://app.example.com/path' },
      'CORS_ORIGINS must list origins such as https://app.example.com (no path, no wildcard), got "https://app.example.com/path"',
    ],
  ])('rejects %j, naming the setting', (env, problem) => {
    expect(configProblems(env)).toEqual([problem]);
  });
});
