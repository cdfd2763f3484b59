// A 2025-11-25 request for a session another replica initialized, when replicas share a state store
// (`--state-store`): the session's state is in the store (handleSessions.ts, `legacy`), but the SDK's session
// transport accepts only a session it initialized itself (it answers "Server not initialized" otherwise). So this
// replica answers the one request with a transport of its own that checks no session id (the SDK's stateless mode)
// and an SDK server whose tool calls run in the stored session; both end with the request. What such a replica
// cannot give is the session's GET notification stream, which stays with the replica that holds the transport.
import type * as http from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { McpBackend } from './mcpBackend';
import { createMcpSession } from './mcpSession';
import { serveThroughTransport } from './webTransportBridge';

/** Answers `req` for session `sid`, which the store holds and another replica initialized. DELETE ends it for every replica. */
export async function serveAdoptedSession(backend: McpBackend, sid: string, req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
  if (req.method === 'DELETE') {
    await backend.handles.legacy.close(sid);
    res.writeHead(200).end();
    return;
  }
  if (req.method !== 'POST') {
    const message = `The notification stream of session ${sid.slice(0, 64)} is served by the replica that initialized it; this replica answers the session's POST requests only. Route GET requests of a session to the replica that created it, or use protocol 2026-07-28 (subscriptions/listen on any replica).`;
    res.writeHead(405, { 'content-type': 'application/json', allow: 'POST, DELETE' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
    return;
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const session = await createMcpSession(backend, sid, true);
  try {
    await session.server.connect(transport);
    await serveThroughTransport(transport, req, res, body);
  } finally {
    await session.dispose().catch(() => undefined);
    await transport.close().catch(() => undefined);
  }
}
