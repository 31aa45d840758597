import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway, startGateway } from '../support/gateway.js';
import { ROOT } from '../support/processes.js';
import { call, httpClient, inProcessClient, LOOKUP_TOOLS, textOf } from './support.js';

/** docs/agents.md against the code: its client configurations connect, its example calls answer what it says. */
const PAGE = readFileSync(join(ROOT, 'docs/agents.md'), 'utf8');
const PLACEHOLDER = '/path/to/lookup-graph';
const KEY = 'lg_live_docs_agents_key_0123456789';

type ServerConfig = {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  type?: string;
  headers?: Record<string, string>;
};
const configs: ServerConfig[] = [...PAGE.matchAll(/^```json\n([\s\S]*?)^```$/gm)]
  .map(
    (match) =>
      JSON.parse(match[1]!) as { mcpServers?: Record<string, ServerConfig>; servers?: Record<string, ServerConfig> },
  )
  .flatMap((block) => Object.values(block.mcpServers ?? block.servers ?? {}));
const stdio = configs.filter((config) => config.command);
const http = configs.filter((config) => config.url);

describe('docs/agents.md: client configurations', () => {
  it('has stdio and HTTP configurations', () => {
    expect(stdio.length).toBeGreaterThanOrEqual(2);
    expect(http.length).toBeGreaterThanOrEqual(2);
  });

  it.each(stdio.map((config) => [`${config.command} ${config.args!.join(' ')}`, config] as const))(
    'stdio: %s starts and lists the tools',
    async (_name, config) => {
      const args = config.args!.map((arg) => arg.replaceAll(PLACEHOLDER, ROOT.replace(/\/$/, '')));
      for (const arg of args) if (arg.endsWith('.js')) expect(existsSync(arg), arg).toBe(true);
      const settings = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
      for (const name of Object.keys(config.env ?? {})) expect(settings).toContain(`| \`${name}\` |`);
      const client = new Client({ name: 'docs-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: config.command!,
          args,
          env: { PATH: process.env.PATH ?? '', ...config.env },
          stderr: 'ignore',
        }),
      );
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const name of LOOKUP_TOOLS) expect(names).toContain(name);
      await client.close();
    },
    60_000,
  );

  describe('HTTP, on a gateway that requires API keys', () => {
    const gw = forSuite(() => startGateway({ GATEWAY_AUTH: 'api-key', GATEWAY_API_KEY_HASHES: hashApiKey(KEY) }));
    it.each(http.map((config) => [config.url!, config] as const))(
      '%s with its headers connects and lists the tools',
      async (url, config) => {
        expect(new URL(url).pathname).toBe('/mcp');
        const headers = Object.fromEntries(
          Object.entries(config.headers ?? {}).map(([name]) => [
            name,
            name.toLowerCase() === 'authorization' ? `Bearer ${KEY}` : KEY,
          ]),
        );
        expect(Object.keys(headers).map((name) => name.toLowerCase())).toEqual([
          expect.stringMatching(/^(x-api-key|authorization)$/),
        ]);
        const client = await httpClient(gw.url, headers);
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('company');
        await client.close();
      },
    );
  });
});

describe('docs/agents.md: the default tools', () => {
  const rows = [...PAGE.matchAll(/^\| `([a-z_]+)` \| [^|]+ \| `(\{.*\})` \| (\d+) \|$/gm)].map((m) => ({
    tool: m[1]!,
    args: JSON.parse(m[2]!),
    bytes: Number(m[3]),
  }));
  const gw = forSuite(() => inProcessGateway());

  it('lists every lookup tool and the one that follows a link', () => {
    expect(rows.map((row) => row.tool).sort()).toEqual([...LOOKUP_TOOLS, 'company_with_stock'].sort());
  });

  it.each(rows.map((row) => [row.tool, row] as const))(
    '%s: the example call answers, in the bytes shown',
    async (_tool, row) => {
      const client = await inProcessClient(gw);
      const result = await call(client, row.tool, row.args);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(Buffer.byteLength(textOf(result))).toBe(row.bytes);
      await client.close();
    },
  );
});
