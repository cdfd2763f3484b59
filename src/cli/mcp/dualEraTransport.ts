// Both protocol eras over one stdio stream: a message that asks for 2026-07-28 (per-request `_meta`, or
// `server/discover`, the probe dual-era clients send first) is answered by modernDispatch.ts on its own; every
// other message goes on to the legacy SDK session (initialize and what follows). The specification lets a
// dual-era server serve both on one process; the initialize handshake scopes legacy semantics to it.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { asksModern, dispatchModern, type ModernServer } from './modernDispatch';
import { openListen, type ListenStream } from './modernSubscriptions';

/** Wraps `inner` (the stdio transport) so modern requests never reach the SDK server connected to the wrapper. */
export class DualEraTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** Modern requests in flight, so close() can wait for their answers. */
  private readonly inflight = new Set<Promise<void>>();
  /** Open `subscriptions/listen` streams by request id (on stdio they share the one channel). */
  private readonly listens = new Map<string | number, ListenStream>();

  constructor(
    private readonly inner: Transport,
    private readonly modern: ModernServer,
  ) {
    inner.onclose = () => {
      for (const l of this.listens.values()) l.close(false);
      this.listens.clear();
      this.onclose?.();
    };
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (message, extra) => {
      // Cancelling a listen stream (stdio): notifications/cancelled naming its request id ends it without a result.
      const m = message as { method?: string; params?: { requestId?: string | number } };
      if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined && this.listens.has(m.params.requestId)) {
        this.listens.get(m.params.requestId)!.close(false);
        this.listens.delete(m.params.requestId);
        return;
      }
      if (!asksModern(message)) {
        this.onmessage?.(message, extra);
        return;
      }
      const work = dispatchModern(this.modern, message, undefined)
        .then((a) => {
          if (a.listen) {
            const id = a.listen.id;
            this.listens.get(id)?.close(false);
            this.listens.set(id, openListen(this.modern.backend, a.listen, (n) => void this.inner.send(n as JSONRPCMessage).catch(() => undefined)));
            return undefined;
          }
          return a.body ? this.inner.send(a.body as JSONRPCMessage) : undefined;
        })
        .catch((e: unknown) => this.onerror?.(e as Error))
        .finally(() => this.inflight.delete(work));
      this.inflight.add(work);
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    return this.inner.send(message, options);
  }

  async close(): Promise<void> {
    await Promise.all(this.inflight);
    for (const l of this.listens.values()) l.close(true);
    this.listens.clear();
    await this.modern.close();
    await this.inner.close();
  }
}
