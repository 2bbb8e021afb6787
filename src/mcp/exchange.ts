import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { withFields } from '../domain/with-fields.js';

type Answer = (message: JSONRPCMessage) => void;

/**
 * The SDK's Transport for a server that answers many HTTP requests at once over one connection: a
 * request goes in under an id of the exchange's own and its response comes back with the caller's
 * id, so two callers' equal ids never meet. What the server sends without a request waiting for it
 * (notifications, requests to the client) has nowhere to go on stateless HTTP and is dropped, as
 * the SDK's own transport drops it in JSON mode.
 */
export class Exchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private next = 0;
  private readonly waiting = new Map<number, { answer: Answer; id: RequestId }>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.waiting.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // A response has an id and no method; its id is one of ours.
    if ('method' in message || !('id' in message) || typeof message.id !== 'number') return;
    const w = this.waiting.get(message.id);
    if (w === undefined) return;
    this.waiting.delete(message.id);
    w.answer(withFields(message, { id: w.id }));
  }

  /** The server's response to `request`, with the caller's id. */
  ask(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    const id = ++this.next;
    return new Promise((answer) => {
      this.waiting.set(id, { answer, id: request.id });
      // A client's message: spread, since withFields would take an own `__proto__` member as the prototype.
      // eslint-disable-next-line no-restricted-syntax
      this.onmessage?.({ ...request, id }, extra);
    });
  }

  /**
   * A notification or a response from the caller: nothing comes back. A cancellation is dropped:
   * it names a request by the caller's id, which in the server's eyes is the exchange's id of
   * whichever request holds it, perhaps another caller's (which would then never be answered).
   * Stateless HTTP offers no way to cancel a request anyway; a client closes its connection.
   */
  tell(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    if ('method' in message && message.method === 'notifications/cancelled') return;
    this.onmessage?.(message, extra);
  }
}
