import { describe, expect, it } from 'vitest';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway } from '../support/gateway.js';
import { call, inProcessClient } from './support.js';

describe('tools/list is lean: an agent pays for it on every session', () => {
  const gw = forSuite(() => inProcessGateway());

  it('is under 15,000 bytes, with output schemas that repeat no documentation', async () => {
    const client = await inProcessClient(gw);
    try {
      const listed = await client.listTools();
      expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThan(15_000);
      const outputs = JSON.stringify(listed.tools.map((tool) => tool.outputSchema ?? {}));
      // A "description" keyword (a string), not a selected field named description (an object).
      expect(outputs).not.toMatch(/"description":"/);
      // The GraphQL fields' documentation (upstream action names ...) stays in lookup://schema.graphql.
      expect(listed.tools.map((tool) => tool.description).join('\n')).not.toMatch(/upstream action/);
    } finally {
      await client.close();
    }
  });

  it('states the bounds in the input schemas, and the gateway holds to them', async () => {
    const client = await inProcessClient(gw);
    try {
      const { tools } = await client.listTools();
      const input = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema.properties!;
      expect(input('microblog_posts').first).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
      expect(input('financial_profiles').symbols).toMatchObject({ type: 'array', minItems: 1, maxItems: 100 });
      // The schema's bounds are the gateway's: one past them is refused with a coded error.
      const over = await call(client, 'microblog_posts', { query: 'trucks', first: 101 });
      expect(over.isError).toBe(true);
      expect(JSON.stringify(over.content)).toContain('BAD_USER_INPUT');
      const symbols = Array.from({ length: 101 }, (_, i) => `S${i}`);
      const tooMany = await call(client, 'financial_profiles', { symbols });
      expect(tooMany.isError).toBe(true);
      expect(JSON.stringify(tooMany.content)).toContain('BAD_USER_INPUT');
    } finally {
      await client.close();
    }
  });
});
