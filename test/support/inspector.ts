import { WebSocket } from 'undici';

/** The inspector's WebSocket address as a process started with `--inspect=127.0.0.1:0` printed it last (it changes with every start). */
export function debuggerUrlIn(output: string): string | undefined {
  return [...output.matchAll(/Debugger listening on (ws:\/\/\S+)/g)].pop()?.[1];
}

/**
 * The live heap of a Node process started with `--inspect=127.0.0.1:0` (NODE_OPTIONS): a full
 * collection through the inspector (HeapProfiler.collectGarbage), then the bytes still in use
 * (Runtime.getHeapUsage). What survives a collection is what the process holds: its caches and leaks,
 * not the garbage a sample of heap-used between collections would count.
 */
export async function liveHeapBytes(debuggerUrl: string, timeoutMs = 10_000): Promise<number> {
  const socket = new WebSocket(debuggerUrl);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve());
      socket.addEventListener('error', () => reject(new Error('inspector connection failed')));
    });
    let id = 0;
    const send = (method: string) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const mine = ++id;
        const timer = setTimeout(() => reject(new Error(`inspector ${method} timed out`)), timeoutMs);
        const onMessage = (event: MessageEvent) => {
          const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
          if (message.id !== mine) return;
          clearTimeout(timer);
          socket.removeEventListener('message', onMessage as never);
          resolve(message.result ?? {});
        };
        socket.addEventListener('message', onMessage as never);
        socket.send(JSON.stringify({ id: mine, method }));
      });
    await send('HeapProfiler.collectGarbage');
    return Number((await send('Runtime.getHeapUsage')).usedSize);
  } finally {
    socket.close();
  }
}
