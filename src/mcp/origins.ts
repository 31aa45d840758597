// Own, not the SDK's origin and host validators: those take one fixed allowlist, and this one also accepts the request's own origin (same-origin) and any port of a loopback name.
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether an address (as `host`, without a port, or a URL's `hostname`) names this machine. */
function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK.has(name) || name === '::1' || name.endsWith('.localhost');
}

const hostnameOf = (host: string): string | null => {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
};

/** CORS_ORIGINS as the checks read them: the origins, and the hosts they name. */
export interface AllowedOrigins {
  origins: Set<string>;
  hosts: Set<string>;
}

export const allowedOrigins = (listed: string[]): AllowedOrigins => ({
  origins: new Set(listed),
  hosts: new Set(listed.filter((origin) => URL.canParse(origin)).map((origin) => new URL(origin).host)),
});

/**
 * Why a request may not use /mcp (DNS rebinding, a foreign page), or null. `Origin`, when a browser
 * sends one, must be listed in CORS_ORIGINS, or be the request's own origin (its Host) or a loopback
 * origin (any port) when the gateway listens on loopback. `Host`, when the gateway listens on
 * loopback, must name a loopback address or a host of CORS_ORIGINS: a page of another site whose name
 * was made to resolve to 127.0.0.1 still sends its own name as Host.
 */
export function originRefusal(request: Request, allowed: AllowedOrigins, loopback: boolean): string | null {
  const host = request.headers.get('host');
  if (loopback && host !== null && !allowed.hosts.has(host)) {
    const hostname = hostnameOf(host);
    if (hostname === null || !isLoopback(hostname))
      return `This Host (${host}) may not use the MCP endpoint: the gateway listens on loopback (CORS_ORIGINS).`;
  }
  const origin = request.headers.get('origin');
  if (origin === null || allowed.origins.has(origin)) return null;
  if (loopback && URL.canParse(origin)) {
    const url = new URL(origin);
    const http = url.protocol === 'http:' || url.protocol === 'https:';
    if (http && (isLoopback(url.hostname) || (host !== null && url.host === host))) return null;
  }
  return 'This Origin may not use the MCP endpoint (CORS_ORIGINS).';
}
