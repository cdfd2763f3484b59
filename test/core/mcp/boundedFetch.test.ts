// The HTTP side of the skills client's bound: a JSON body is held to the limit in all, an event stream per event
// (counted from the last blank line, across chunk boundaries and with CRLF), so a long stream of small events
// passes and one event over the limit errors the stream as it arrives, telling the client why.
import * as assert from 'node:assert/strict';
import { boundedFetch } from '../../../src/core/mcp/boundedFetch';

/** A fetch that answers with `chunks`, as a server streaming them would. */
function serving(chunks: string[], contentType: string) {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const ch of chunks) c.enqueue(new TextEncoder().encode(ch));
          c.close();
        },
      }),
      { headers: { 'content-type': contentType } },
    );
}

async function drain(res: Response): Promise<number> {
  let n = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) return n;
    n += r.value.length;
  }
}

describe('mcp/boundedFetch: response bodies bounded per message while they stream', () => {
  it('passes a JSON body up to the limit and refuses one past it, naming the server', async () => {
    const refusals: Error[] = [];
    const ok = boundedFetch('web', 100, (e) => refusals.push(e), serving(['x'.repeat(60), 'x'.repeat(40)], 'application/json'));
    assert.equal(await drain(await ok('http://127.0.0.1/mcp')), 100);
    const big = boundedFetch('web', 100, (e) => refusals.push(e), serving(['x'.repeat(60), 'x'.repeat(41), 'never read'], 'application/json'));
    await assert.rejects(drain(await big('http://127.0.0.1/mcp')), /MCP server 'web' sent a response of more than 100 bytes/);
    assert.equal(refusals.length, 1);
  });

  it('counts an event stream per event: many small events pass, one large event is refused, across chunks and CRLF', async () => {
    const event = (n: number, eol = '\n') => `data: ${'y'.repeat(n)}${eol}${eol}`;
    const many = Array.from({ length: 50 }, (_, i) => event(40, i % 2 ? '\r\n' : '\n'));
    const small = boundedFetch('sse', 100, () => undefined, serving(many, 'text/event-stream'));
    assert.ok((await drain(await small('http://127.0.0.1/mcp'))) > 2000, 'a stream far longer than the limit passes when its events are small');
    // The blank line split over two chunks still ends the event.
    const split = boundedFetch('sse', 100, () => undefined, serving([`data: ${'y'.repeat(80)}\n`, `\ndata: ${'z'.repeat(80)}`], 'text/event-stream'));
    assert.ok((await drain(await split('http://127.0.0.1/mcp'))) > 100);
    const one = boundedFetch('sse', 100, () => undefined, serving([event(30), `data: ${'y'.repeat(60)}`, 'y'.repeat(60), '\n\n'], 'text/event-stream'));
    await assert.rejects(drain(await one('http://127.0.0.1/mcp')), /MCP server 'sse' sent an event of more than 100 bytes/);
  });
});
