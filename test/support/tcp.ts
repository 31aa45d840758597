import type { Socket } from 'node:net';

/** Pipes two sockets into each other; when either ends or fails, both are destroyed. */
export function splice(a: Socket, b: Socket): void {
  a.pipe(b).pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end).on('close', end);
  b.on('error', end).on('close', end);
}
