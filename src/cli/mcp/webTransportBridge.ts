// Node's http server in front of the SDK 2.x Streamable HTTP transport, which speaks web-standard Request and
// Response: one Node request (its body already read, bounded and parsed by httpServer.ts) goes in as a Request,
// and the Response comes back out streaming (a JSON answer, or server-sent events that stay open until either side
// ends them). A client that goes away aborts the Request and stops reading the Response.
import type * as http from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/** Serves `req` (whose body is `body`, already parsed; undefined for GET and DELETE) through `transport`. */
export async function serveThroughTransport(transport: WebStandardStreamableHTTPServerTransport, req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method, headers, signal: gone.signal });
  const response = await transport.handleRequest(request, body === undefined ? {} : { parsedBody: body });
  if (res.headersSent || res.destroyed) return void (await response.body?.cancel().catch(() => undefined));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const stream = Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>);
  res.once('close', () => stream.destroy());
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
