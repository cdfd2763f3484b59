// Idle keep-alive connections of the HTTP server. A client reuses an idle connection until the time the server
// advertised (`Keep-Alive: timeout=N`) minus its own margin (undici, behind fetch: 2 s; Node's http.Agent: 1 s),
// and Node's server closes it 1 s after N. A client whose event loop runs over 3 s late (50 clients in one process
// on a loaded machine: the bench saw 4 to 18 "fetch failed" in 10,000 calls), or a proxy that ignores the hint
// (nginx, a cloud load balancer: 60 s by default), sends its next request on a connection the server is closing
// and gets ECONNRESET or "other side closed": the request is lost, and a POST is not retried. So the server
// advertises `hintMs` and keeps an idle connection open `graceMs` longer (Node 24's `keepAliveTimeoutBuffer`
// does this too; Node 20 has no such option, so it is done with the server's 'timeout' event, which Node hands a
// connection whose keep-alive time ran out instead of destroying it).
import type * as http from 'node:http';
import type { Socket } from 'node:net';

/** The advertised keep-alive time: Node's default, so clients drop idle connections as early as before. */
export const KEEP_ALIVE_HINT_MS = 5_000;
/** How long past the advertised time an idle connection stays open: past the 60 s idle timeout of common proxies. */
export const KEEP_ALIVE_GRACE_MS = 60_000;

/** Advertises `hintMs` on `server`'s responses and closes an idle connection only `graceMs` after that. */
export function holdIdleConnections(server: http.Server, hintMs: number, graceMs: number): void {
  server.keepAliveTimeout = hintMs;
  // server.timeout stays 0 (Node's default): the only socket timeout armed on this server is the keep-alive one.
  server.timeout = 0;
  const inGrace = new WeakSet<Socket>();
  // A request on the connection ends its idle time (Node disarms the timer itself); the next idle time starts over.
  server.on('request', (req: http.IncomingMessage) => inGrace.delete(req.socket));
  server.on('timeout', (socket: Socket) => {
    if (graceMs <= 0 || inGrace.has(socket)) {
      socket.destroy();
      return;
    }
    inGrace.add(socket);
    socket.setTimeout(graceMs);
  });
}
