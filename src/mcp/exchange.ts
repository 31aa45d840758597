// Own, not the SDK's Streamable HTTP transport: that one must be new for every stateless request (with a new server), which cost a cached tool call more than the GraphQL request it makes.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';

type Answer = (message: JSONRPCMessage) => void;

/**
 * A transport that lets one long-lived SDK server answer every stateless HTTP request: each request
 * message gets an id of its own here (clients number theirs from 1, so two clients' ids collide), goes
 * to the server with what the HTTP request gave it (`context`), and its response is handed back under
 * the client's id. The SDK's server still does all of the protocol: initialize, dispatch, validation,
 * JSON-RPC errors.
 */
export class StatelessExchange<Context> implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private nextId = 0;
  private readonly waiting = new Map<number, { answer: Answer; context: Context }>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The server's messages: a response goes to the request it answers; nothing else is sent in stateless mode. */
  async send(message: JSONRPCMessage): Promise<void> {
    const id = 'id' in message && typeof message.id === 'number' ? message.id : undefined;
    const waiting = id === undefined || 'method' in message ? undefined : this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id!);
    waiting.answer(message);
  }

  /** The context of the HTTP request that a request the server is handling came with. */
  contextOf(requestId: RequestId): Context | undefined {
    return typeof requestId === 'number' ? this.waiting.get(requestId)?.context : undefined;
  }

  /** One request through the server, answered under the client's own id. */
  request(message: JSONRPCRequest, context: Context): Promise<JSONRPCMessage> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, {
        answer: (response) => resolve({ ...response, id: message.id } as JSONRPCMessage),
        context,
      });
      this.onmessage?.({ ...message, id });
    });
  }
}
