// The fetch the Streamable HTTP client transport reads through: each response body is counted while it streams,
// and a JSON body, or one server-sent event, longer than the limit errors the stream there instead of being
// buffered whole (the SDK reads a JSON response with `response.json()` and an event until its blank line).
import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * A fetch whose response bodies stop at `maxMessageBytes` per message; `refused` is told once, with the reason;
 * `read` is told the size of each piece of a body that reached the limiter (what the client read).
 */
export function boundedFetch(server: string, maxMessageBytes: number, refused: (e: Error) => void, base: FetchLike = fetch, read: (bytes: number) => void = () => undefined): FetchLike {
  return async (url, init) => {
    const res = await base(url, init);
    if (!res.body) return res;
    const sse = /^\s*text\/event-stream/i.test(res.headers.get('content-type') ?? '');
    let run = 0;
    let last = -1;
    const limiter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read(chunk.length);
        // For an event stream, count from the end of the last event (a blank line: LF LF, CR CR or CRLF CRLF).
        if (sse) {
          let end = -1;
          for (let i = 0; i < chunk.length; i++) {
            const c = chunk[i];
            const prev = i > 0 ? chunk[i - 1] : last;
            if ((c === 0x0a && (prev === 0x0a || (prev === 0x0d && i > 1 && chunk[i - 2] === 0x0a))) || (c === 0x0d && prev === 0x0d)) end = i;
          }
          last = chunk.length ? chunk[chunk.length - 1] : last;
          run = end >= 0 ? chunk.length - end - 1 : run + chunk.length;
        } else run += chunk.length;
        if (run > maxMessageBytes) {
          const e = new Error(`MCP server '${server}' sent ${sse ? 'an event' : 'a response'} of more than ${maxMessageBytes} bytes; it was refused while it streamed. Ask the server's owner to send smaller messages.`);
          refused(e);
          controller.error(e);
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(limiter), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
