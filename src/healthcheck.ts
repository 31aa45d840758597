/**
 * The container's HEALTHCHECK (`node dist/healthcheck.js`): exits 0 when GET /healthz on this
 * process's own HOST and PORT answers 200 within 2 s, else 1. Liveness only: readiness is the load balancer's
 * business (/readyz), and a draining container must not be restarted for it.
 */
const port = Number(process.env.PORT?.trim() || 4000);
// The address the gateway listens on (HOST), or this machine's own when it listens on every address.
const listen = process.env.HOST?.trim();
const host =
  !listen || listen === '0.0.0.0' || listen === '::' ? '127.0.0.1' : listen.includes(':') ? `[${listen}]` : listen;

fetch(`http://${host}:${port}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
  (res) => process.exit(res.status === 200 ? 0 : 1),
  () => process.exit(1),
);
