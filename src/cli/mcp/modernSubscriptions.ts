// `subscriptions/listen` of the 2026-07-28 revision: a long-lived stream that first acknowledges the filter the
// server honours, then carries only the change notifications the client asked for, each tagged with the
// subscription id (the JSON-RPC id of the listen request). It replaces resources/subscribe and the HTTP GET
// stream. The transports own the stream (an SSE response on HTTP, the shared channel on stdio); this file owns
// what goes on it.
import type { McpBackend } from './mcpBackend';
import { changeNotifications, type ChangeFilter, type SkillsChange } from './changeNotifications';
import { invalidParams } from './requestError';

/** Most resource URIs one listen request may name. */
export const MAX_LISTEN_URIS = 1000;
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** A parsed listen request: its id and the part of the filter this server honours. */
export interface ListenRequest {
  id: string | number;
  filter: ChangeFilter;
}

/** An open stream; `close(true)` ends it gracefully (the listen request's result is sent), `close(false)` just stops. */
export interface ListenStream {
  close(graceful: boolean): void;
}

/** The filter of `params.notifications`, -32602 for a malformed one. Tools never change here, so that type is not honoured. */
export function parseListen(id: string | number, params: Record<string, unknown>): ListenRequest {
  const n = params.notifications ?? {};
  if (typeof n !== 'object' || n === null || Array.isArray(n)) throw invalidParams('subscriptions/listen: params.notifications must be an object (toolsListChanged, promptsListChanged, resourcesListChanged, resourceSubscriptions).');
  const f = n as Record<string, unknown>;
  for (const k of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    if (f[k] !== undefined && typeof f[k] !== 'boolean') throw invalidParams(`subscriptions/listen: notifications.${k} must be true or false.`);
  }
  const uris = f.resourceSubscriptions ?? [];
  if (!Array.isArray(uris) || uris.some((u) => typeof u !== 'string' || u.length > 2048)) throw invalidParams('subscriptions/listen: notifications.resourceSubscriptions must be a list of resource URIs.');
  if (uris.length > MAX_LISTEN_URIS) throw invalidParams(`subscriptions/listen: at most ${MAX_LISTEN_URIS} resourceSubscriptions per stream; open another stream for more.`);
  return { id, filter: { resourcesListChanged: f.resourcesListChanged === true, promptsListChanged: f.promptsListChanged === true, resourceSubscriptions: new Set(uris as string[]) } };
}

/** Opens the stream: sends the acknowledgment, then each notification the filter lets through, via `send`. */
export function openListen(backend: McpBackend, req: ListenRequest, send: (message: Record<string, unknown>) => void): ListenStream {
  const meta = { [SUBSCRIPTION_ID]: req.id };
  const f = req.filter;
  send({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: {
      _meta: meta,
      notifications: {
        ...(f.promptsListChanged ? { promptsListChanged: true } : {}),
        ...(f.resourcesListChanged ? { resourcesListChanged: true } : {}),
        ...(f.resourceSubscriptions.size ? { resourceSubscriptions: [...f.resourceSubscriptions] } : {}),
      },
    },
  });
  const onChanged = (c: SkillsChange) => {
    for (const n of changeNotifications(c, f)) send({ jsonrpc: '2.0', method: n.method, params: { ...n.params, _meta: meta } });
  };
  backend.events.on('changed', onChanged);
  let open = true;
  return {
    close(graceful) {
      if (!open) return;
      open = false;
      backend.events.off('changed', onChanged);
      if (graceful) send({ jsonrpc: '2.0', id: req.id, result: { resultType: 'complete', _meta: meta } });
    },
  };
}
