// Own: node:cluster's IPC carries one-way messages only; this adds a request/response with ids and a timeout, which no installed library offers.
import cluster, { type Worker } from 'node:cluster';

const ASK = 'lookup-graph:ask';
const ANSWER = 'lookup-graph:answer';

interface Ask {
  type: typeof ASK;
  id: number;
  topic: string;
  payload: unknown;
  /** When the asker stops waiting (epoch ms, one machine's clock): a question read later is dropped, not acted on. */
  until: number;
}

interface Answer {
  type: typeof ANSWER;
  id: number;
  result: unknown;
}

type Handler = (payload: unknown, worker?: Worker) => unknown;

const handlers = new Map<string, Handler>();
const pending = new Map<number, { resolve: (result: unknown) => void; timer: NodeJS.Timeout }>();
let nextId = 1;
let listening = false;

/** Whether this process is a worker of WORKERS > 1 that can ask its primary. */
export function inWorkerGroup(): boolean {
  return cluster.isWorker && typeof process.send === 'function';
}

/**
 * In a worker: asks the primary about `topic`. Resolves with its answer, or with undefined when none comes
 * within `timeoutMs` (the primary busy, or the channel closed): the caller decides what that means.
 */
export function askPrimary<T>(topic: string, payload: unknown, timeoutMs: number): Promise<T | undefined> {
  if (!inWorkerGroup() || !process.connected) return Promise.resolve(undefined);
  listen();
  return ask((message) => process.send!(message, undefined, undefined, onSendError), topic, payload, timeoutMs);
}

/** In the primary: asks one worker about `topic`; undefined when it does not answer within `timeoutMs`. */
export function askWorker<T>(
  worker: Worker,
  topic: string,
  payload: unknown,
  timeoutMs: number,
): Promise<T | undefined> {
  if (!worker.isConnected()) return Promise.resolve(undefined);
  listen();
  return ask((message) => worker.send(message, undefined, onSendError), topic, payload, timeoutMs);
}

/**
 * Answers the other side's questions about `topic` with `handler`'s result (awaited when a promise); in the
 * primary the handler is told which worker asked. A handler that throws or rejects sends no answer: the asker
 * times out. A question read after its asker stopped waiting is dropped unanswered, its handler not run.
 */
export function answer(topic: string, handler: Handler): void {
  handlers.set(topic, handler);
  listen();
}

function ask<T>(
  send: (message: Ask) => void,
  topic: string,
  payload: unknown,
  timeoutMs: number,
): Promise<T | undefined> {
  const id = nextId++;
  return new Promise<T | undefined>((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      resolve(undefined);
    }, timeoutMs);
    timer.unref();
    pending.set(id, { resolve: (result) => resolve(result as T), timer });
    try {
      send({ type: ASK, id, topic, payload, until: Date.now() + timeoutMs });
    } catch {
      // The channel closed between the check and the send: the same as no answer.
      clearTimeout(timer);
      pending.delete(id);
      resolve(undefined);
    }
  });
}

/** A message the channel could not carry (it closed): the question times out, the answer is lost. */
function onSendError(): void {}

function listen(): void {
  if (listening) return;
  listening = true;
  if (cluster.isPrimary) {
    cluster.on('message', (worker: Worker, message: unknown) =>
      receive(message, worker, (reply) => {
        if (worker.isConnected()) worker.send(reply, undefined, onSendError);
      }),
    );
  } else {
    process.on('message', (message: unknown) =>
      receive(message, undefined, (reply) => {
        if (process.connected) process.send!(reply, undefined, undefined, onSendError);
      }),
    );
  }
}

function receive(message: unknown, worker: Worker | undefined, reply: (answer: Answer) => void): void {
  if (typeof message !== 'object' || message === null) return;
  const { type, id } = message as { type?: unknown; id?: unknown };
  if (typeof id !== 'number') return;
  if (type === ANSWER) {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    clearTimeout(waiting.timer);
    waiting.resolve((message as Answer).result);
    return;
  }
  if (type !== ASK) return;
  const handler = handlers.get((message as Ask).topic);
  // Read after its asker gave up (this process was busy or stopped): acting on it now would count what the asker did without.
  if (!handler || !(Date.now() <= (message as Ask).until)) return;
  try {
    Promise.resolve(handler((message as Ask).payload, worker)).then(
      (result) => reply({ type: ANSWER, id, result }),
      () => {},
    );
  } catch {
    // No answer: the asker times out.
  }
}
