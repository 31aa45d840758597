import {
  getNamedType,
  type GraphQLField,
  type GraphQLObjectType,
  isAbstractType,
  isObjectType,
  isRequiredArgument,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graph/index.js';
import { SANDBOX_ACTIONS } from '../../src/sandbox/answers.js';
import { json } from '../support/fault-upstream.js';
import { upstreamGatewayFor } from '../support/fixtures.js';

/**
 * The upstream may leave any value out or send null for it ("treat every 'not shown' as 'can
 * happen'"). Each lookup is answered with its sandbox sample with every scalar value left out, or
 * null, at every depth (objects and lists kept, so every nested type is reached), and every field of
 * the schema is asked for: a field that is non-null although the upstream can omit its value shows
 * up as an error that nulls its parent.
 */
const KEPT = new Set(['symbol']); // financial profiles are matched to the asked symbols by it
type Sparse = 'left out' | 'null';

function sparse(value: unknown, how: Sparse): unknown {
  if (Array.isArray(value))
    return value.filter((item) => item !== null && typeof item === 'object').map((item) => sparse(item, how));
  if (value === null || typeof value !== 'object') return how === 'null' ? null : undefined;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, item]) => {
      if (KEPT.has(key)) return [[key, item]];
      const kept = sparse(item, how);
      return kept === undefined ? [] : [[key, kept]];
    }),
  );
}

const ROOT_ARGS: Record<string, string> = {
  company: '(domain: "acme.example")',
  crmOwners: '(portal: "139981")',
  domainInfo: '(domain: "acme.example")',
  financialProfiles: '(symbols: ["AAPL"])',
  microblogPosts: '(query: "graphql")',
  news: '(query: "graphql")',
  photosocialProfile: '(username: "acme")',
  professionalnetProfile: '(handle: "jane-doe")',
  videositeChannel: '(url: "https://www.videosite.example/@acme")',
  videositeSearch: '(query: "graphql")',
  videositeTranscript: '(url: "https://www.videosite.example/watch?v=abc")',
};
/** The types a root field returns: a link to one of them is another lookup, asked for at its own root. */
const LOOKUP_TYPES = new Set(
  Object.values(schema.getQueryType()!.getFields()).map((field) => getNamedType(field.type).name),
);

function selection(type: GraphQLObjectType, depth: number): string {
  const fields = Object.values(type.getFields() as Record<string, GraphQLField<unknown, unknown>>).filter(
    (field) => !field.args.some(isRequiredArgument) && !(depth > 0 && LOOKUP_TYPES.has(getNamedType(field.type).name)),
  );
  return `{ __typename ${fields.map((field) => `${field.name} ${subSelection(getNamedType(field.type), depth + 1)}`).join(' ')} }`;
}

function subSelection(type: ReturnType<typeof getNamedType>, depth: number): string {
  if (isObjectType(type)) return selection(type, depth);
  if (isAbstractType(type)) {
    return `{ __typename ${schema
      .getPossibleTypes(type)
      .map((possible) => `... on ${possible.name} ${selection(possible, depth)}`)
      .join(' ')} }`;
  }
  return '';
}

describe.each<Sparse>(['left out', 'null'])('a lookup whose upstream sends every value %s', (how) => {
  const rig = upstreamGatewayFor(
    { COST_BUDGET: '1000', MAX_DEPTH: '100', MAX_REQUEST_BYTES: '10000000' },
    { security: { limits: { maxTokens: 1_000_000 } } },
  );
  beforeAll(() => {
    rig.up.handle((call, _req, res) => {
      const { response, ...rest } = SANDBOX_ACTIONS[call.action]!.respond(call.body);
      // The transcript's `response` is the one value the loader requires (a string; anything else is a coded error).
      json(res, 200, {
        status: 200,
        response: typeof response === 'string' ? '' : sparse(response, how),
        ...(sparse(rest, how) as object),
      });
    });
  });

  it.each(Object.keys(ROOT_ARGS))('%s keeps every object, with null where a value is missing', async (root) => {
    const field = schema.getQueryType()!.getFields()[root]!;
    const { body } = await rig.gw.query(`{ ${root}${ROOT_ARGS[root]} ${subSelection(getNamedType(field.type), 0)} }`);
    expect(body.errors?.map((error) => `${error.path?.join('.')}: ${error.message}`) ?? []).toEqual([]);
    expect(body.data?.[root]).not.toBeNull();
  });
});
