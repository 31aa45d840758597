import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';
import { forSuite } from './fixtures.js';
import { startGateway, type RunningGateway, type Tuning } from './gateway.js';

/** A client registered at the test's authorization server (client credentials, secret in the basic header). */
export interface IssuerClient {
  id: string;
  secret: string;
  /** The scopes it may ask for; `lookups` unless said. */
  scope?: string;
}

/** A signing key of the provider, private part included, so tests may also sign tokens with it by hand. */
interface SigningKey {
  kid: string;
  jwk: JWK;
  privateKey: CryptoKey;
}

export interface TestIssuer {
  /** The issuer, `http://127.0.0.1:<port>`: JWT_ISSUER. */
  issuer: string;
  /** Requests for the key set (jwks_uri) and for the discovery document, since start. */
  fetches: { jwks: number; discovery: number };
  /** The key the provider signs with now. */
  currentKey(): SigningKey;
  /** A client-credentials access token from the token endpoint, for `resource` (its audience). */
  token(client: IssuerClient, resource: string, scope?: string): Promise<string>;
  /** A token signed by hand with one of the provider's keys (or another), for the refusals a real server never issues. */
  sign(payload: JWTPayload, options?: { key?: SigningKey; alg?: string; kid?: string }): Promise<string>;
  /** A new signing key, published first in the key set; the old one stays published (a rotation). */
  rotate(): Promise<void>;
  /** Stops answering: the port is closed, connections cut. */
  stop(): Promise<void>;
  /** Answers again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function newSigningKey(alg = 'ES256'): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `k-${Math.random().toString(36).slice(2, 10)}`;
  const jwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  return { kid, jwk, privateKey };
}

/**
 * oidc-provider, the certified OpenID provider, on loopback: OpenID discovery, a key set, and a token
 * endpoint that issues client-credentials access tokens as JWTs whose audience is the requested resource
 * (RFC 8707 resource indicators). Every resource is accepted; each token grants what the client asks of
 * `lookups` and `other`.
 */
export async function startIssuer(clients: IssuerClient[]): Promise<TestIssuer> {
  const keys: SigningKey[] = [await newSigningKey()];
  const fetches = { jwks: 0, discovery: 0 };
  const sockets = new Set<Socket>();
  let provider: Provider;
  let server: Server;
  let port = 0;

  const build = (issuer: string) => {
    const built = new Provider(issuer, {
      clients: clients.map((client) => ({
        client_id: client.id,
        client_secret: client.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: client.scope ?? 'lookups other',
      })),
      jwks: { keys: keys.map((key) => key.jwk) },
      clientDefaults: { id_token_signed_response_alg: 'ES256' },
      ttl: { ClientCredentials: 300 },
      scopes: ['lookups', 'other'],
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined as unknown as string,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource) => ({
            scope: 'lookups other',
            audience: resource,
            accessTokenTTL: 300,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          }),
        },
      },
    });
    built.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));
    return built;
  };

  const listen = async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/jwks')) fetches.jwks += 1;
      if (req.url?.startsWith('/.well-known/openid-configuration')) fetches.discovery += 1;
      provider.callback()(req, res);
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });

  await listen();
  const issuer = `http://127.0.0.1:${port}`;
  provider = build(issuer);

  return {
    issuer,
    fetches,
    currentKey: () => keys[0]!,
    async token(client, resource, scope = 'lookups') {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString(),
      });
      const body = (await res.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!body.access_token) throw new Error(`no token: ${body.error}: ${body.error_description}`);
      return body.access_token;
    },
    async sign(payload, options = {}) {
      const key = options.key ?? keys[0]!;
      return new SignJWT(payload)
        .setProtectedHeader({ alg: options.alg ?? 'ES256', kid: options.kid ?? key.kid, typ: 'at+jwt' })
        .sign(key.privateKey);
    },
    async rotate() {
      keys.unshift(await newSigningKey());
      provider = build(issuer);
    },
    stop,
    start: listen,
    close: stop,
  };
}

/**
 * An authorization server for `clients` and a gateway over the sandbox that accepts its tokens for
 * `audience`, with these settings besides, for the enclosing describe block: started in its beforeAll,
 * closed in its afterAll (see forSuite).
 */
export function issuerAndGatewayFor(
  clients: IssuerClient[],
  audience: string,
  env: Record<string, string> = {},
  tuning: Tuning = {},
): { issuer: TestIssuer; gw: RunningGateway } {
  const issuer = forSuite(() => startIssuer(clients));
  const gw = forSuite(() => startGateway({ JWT_ISSUER: issuer.issuer, JWT_AUDIENCE: audience, ...env }, 0, tuning));
  return { issuer, gw };
}
