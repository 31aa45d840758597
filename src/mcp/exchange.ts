// Own, not the SDK's Streamable HTTP transport: that one serves one request and needs a new server each time, which made a cached tool call cost several times the GraphQL request it becomes.
import type { JSONRPCMessage, JSONRPCRequest, Transport } from '@modelcontextprotocol/server';

/**
 * A transport that lets one long-lived SDK server answer the 2025-era messages of every stateless HTTP
 * request: each message gets an id of its own here (clients number theirs from 1, so two clients' ids
 * collide), reaches the server with the HTTP request it came in (the handlers' `ctx.http.req`), and
 * its response is handed back under the client's id. The SDK's server still does all of the protocol:
 * initialize, dispatch, validation, JSON-RPC errors. Notifications the server sends while it handles
 * a message are not delivered: the answer is one JSON body.
 */
export class StatelessExchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private nextId = 0;
  private readonly waiting = new Map<number, (response: JSONRPCMessage) => void>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The server's messages: a response goes to the request it answers; nothing else has anywhere to go. */
  async send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message || !('id' in message) || typeof message.id !== 'number') return;
    const answer = this.waiting.get(message.id);
    if (!answer) return;
    this.waiting.delete(message.id);
    answer(message);
  }

  /** One request through the server, answered under the client's own id. */
  request(message: JSONRPCRequest, request: Request): Promise<JSONRPCMessage> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, (response) => resolve({ ...response, id: message.id } as JSONRPCMessage));
      this.onmessage?.({ ...message, id }, { request });
    });
  }
}
