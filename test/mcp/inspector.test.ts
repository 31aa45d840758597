import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { forSuite } from '../support/fixtures.js';
import { startGateway } from '../support/gateway.js';

/**
 * The MCP Inspector's CLI, run from the npm registry with npm exec (pinned; .ci/run fetches it
 * before the tests). Not a devDependency: it brings a web app's dependencies the gateway has no use for.
 */
const INSPECTOR = '@modelcontextprotocol/inspector@0.21.2';
const run = promisify(execFile);

async function inspector(url: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await run(
    'npm',
    [
      'exec',
      '--yes',
      `--package=${INSPECTOR}`,
      '--',
      'mcp-inspector',
      '--cli',
      `${url}/mcp`,
      '--transport',
      'http',
      ...args,
    ],
    { timeout: 240_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } },
  );
  return JSON.parse(stdout);
}

describe('the MCP Inspector CLI against /mcp', () => {
  const gw = forSuite(() => startGateway());

  it('lists the tools, calls one and reads a resource', { timeout: 300_000 }, async () => {
    const listed = (await inspector(gw.url, '--method', 'tools/list')) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((tool) => tool.name)).toContain('videosite_channel');
    const called = (await inspector(
      gw.url,
      '--method',
      'tools/call',
      '--tool-name',
      'domain_info',
      '--tool-arg',
      'domain=https://inspector.example/x',
    )) as {
      structuredContent: { domainInfo: { domainName: string } };
      isError?: boolean;
    };
    expect(called.isError).toBeFalsy();
    expect(called.structuredContent.domainInfo.domainName).toBe('inspector.example');
    const read = (await inspector(gw.url, '--method', 'resources/read', '--uri', 'lookup://schema.graphql')) as {
      contents: Array<{ uri: string; mimeType: string; text: string }>;
    };
    expect(read.contents[0]).toMatchObject({ uri: 'lookup://schema.graphql', mimeType: 'application/graphql' });
    expect(read.contents[0]!.text).toContain('type Query');
  });
});
