/**
 * Before an example starts anything: each port it will listen on must be free, or it stops here with one
 * line naming the setting that moves it (rather than a child's EADDRINUSE stack after others started).
 */
import { createServer } from 'node:net';

/** `ports`: setting name -> port. Exits 1 at the first port another process holds. */
export async function requireFreePorts(ports) {
  for (const [setting, port] of Object.entries(ports)) {
    const problem = await new Promise((resolve) => {
      const server = createServer();
      server.once('error', (error) => resolve(error));
      server.listen(Number(port), '127.0.0.1', () => server.close(() => resolve(null)));
    });
    if (problem?.code === 'EADDRINUSE') {
      console.error(`port ${port} is in use: stop the other process or set ${setting}`);
      process.exit(1);
    }
    if (problem) throw problem;
  }
}
