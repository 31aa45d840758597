#!/usr/bin/env node
/**
 * Composes subgraphs into a supergraph SDL with @theguild/federation-composition (what Hive Gateway runs on)
 * and checks that Apollo's @apollo/composition accepts the same subgraphs. Each subgraph is a running
 * server (its `_service { sdl }`) or an SDL file:
 *
 *   node scripts/compose.mjs --subgraph lookup=http://127.0.0.1:4000/graphql \
 *     --subgraph accounts=http://127.0.0.1:4001/graphql=accounts/schema.graphql --out supergraph.graphql
 *
 * `name=url` fetches the SDL from the URL; `name=url=file` reads it from the file and routes to the URL.
 * `--header name=value` (repeatable) is sent with those fetches, e.g. Lookup Graph's `x-api-key`.
 * Prints one JSON line: { ok, composers: { guild, apollo }, errors, hints }. Exits 1 when either refuses.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { composeServices as composeWithApollo } from '@apollo/composition';
import { composeServices as composeWithGuild } from '@theguild/federation-composition';
import { parse } from 'graphql';

export async function subgraphSdl(url, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
  });
  const body = await res.json();
  if (!body.data?._service?.sdl) throw new Error(`${url} did not answer _service { sdl }: ${JSON.stringify(body.errors ?? body)}`);
  return body.data._service.sdl;
}

/** Both composers over `subgraphs` ({ name, url, sdl }): the Guild's supergraph SDL and every error of either. */
export function compose(subgraphs) {
  const services = subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl) }));
  const guild = composeWithGuild(services);
  const apollo = composeWithApollo(services);
  const errors = [...(guild.errors ?? []).map((e) => `guild: ${e.message}`), ...(apollo.errors ?? []).map((e) => `apollo: ${e.message}`)];
  return {
    ok: errors.length === 0,
    composers: { guild: !guild.errors?.length, apollo: !apollo.errors?.length },
    errors,
    hints: (apollo.hints ?? []).map((hint) => hint.toString()),
    supergraphSdl: guild.supergraphSdl ?? null,
  };
}

async function main(argv) {
  const wanted = [];
  const headers = {};
  let out = null;
  for (let i = 0; i < argv.length; i += 2) {
    const value = argv[i + 1] ?? '';
    if (argv[i] === '--out') out = resolve(value);
    else if (argv[i] === '--header') headers[value.slice(0, value.indexOf('='))] = value.slice(value.indexOf('=') + 1);
    else if (argv[i] === '--subgraph') {
      const [name, url, file] = value.split('=');
      wanted.push({ name, url, file });
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  const subgraphs = [];
  for (const { name, url, file } of wanted) subgraphs.push({ name, url, sdl: file ? readFileSync(file, 'utf8') : await subgraphSdl(url, headers) });
  const result = compose(subgraphs);
  if (out && result.supergraphSdl) writeFileSync(out, result.supergraphSdl);
  const { supergraphSdl: _sdl, ...report } = result;
  console.log(JSON.stringify(report));
  process.exitCode = result.ok ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
