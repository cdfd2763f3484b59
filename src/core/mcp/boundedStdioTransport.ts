// A stdio client transport that holds at most one message's worth of a server's output: lines are collected as
// chunks and joined only once their newline arrives, and a line that grows past the limit closes the connection
// (the child is killed) before more is read. The SDK's stdio client joins every chunk into one growing buffer.
import { spawn, type ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

/** What a stdio server is started with. */
export interface BoundedStdioOptions {
  /** The server's name, for errors. */
  server: string;
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
  /** Largest message (one line) accepted. */
  maxMessageBytes: number;
  /** Told once when a message over the limit closed the connection (before the pending requests fail). */
  refused?: (e: Error) => void;
}

/** How long a closing server may take to exit once its stdin is closed, before it is killed. */
const EXIT_GRACE_MS = 1000;

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Every byte read from the server's stdout (what a refusal let in is at most one chunk past the limit). */
  bytesRead = 0;
  /** Set when the server broke a bound; the connection is closed and this says why. */
  refusal: Error | undefined;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private pending: Buffer[] = [];
  /** Ids of the `server/discover` requests sent. */
  private discoverIds = new Set<string | number>();
  /**
   * Whether the server answered a `server/discover` with a result: proof it speaks 2026-07-28, even when the answer
   * came after the probe stopped waiting (a slow server's late answer, which the client otherwise drops).
   */
  answeredDiscover = false;
  private pendingBytes = 0;

  constructor(private readonly o: BoundedStdioOptions) {}

  /**
   * The server's process id while it runs. With {@link stderr}, this is how the SDK's version negotiation knows the
   * stdio binding (it looks for both): there, a `server/discover` probe that gets no answer in time means a legacy
   * server and falls back to `initialize` (2026-07-28 versioning, the compatibility matrix), where over HTTP it is
   * an error. Without them a slow server's silence marked it down.
   */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Always null: the server's stderr is not read (see {@link pid}). */
  get stderr(): null {
    return null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error(`the transport to MCP server '${this.o.server}' was already started.`);
    return new Promise((resolve, reject) => {
      const child = spawn(this.o.command, [...this.o.args], { env: this.o.env, cwd: this.o.cwd, stdio: ['pipe', 'pipe', 'ignore'], shell: false });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (e) => {
        reject(e);
        this.onerror?.(e);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (e) => this.onerror?.(e));
      child.stdout?.on('error', (e) => this.onerror?.(e));
      child.stdout?.on('data', (chunk: Buffer) => this.feed(chunk));
    });
  }

  private feed(chunk: Buffer): void {
    if (this.refusal) return;
    this.bytesRead += chunk.length;
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf(0x0a);
      const lineBytes = this.pendingBytes + (nl < 0 ? rest.length : nl);
      if (lineBytes > this.o.maxMessageBytes) return this.refuse(lineBytes);
      if (nl < 0) {
        if (rest.length) {
          this.pending.push(rest);
          this.pendingBytes += rest.length;
        }
        return;
      }
      const line = Buffer.concat([...this.pending, rest.subarray(0, nl)]).toString('utf8').replace(/\r$/, '');
      this.pending = [];
      this.pendingBytes = 0;
      rest = rest.subarray(nl + 1);
      if (line.trim() === '') continue;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (e) {
        this.onerror?.(new Error(`MCP server '${this.o.server}' wrote a line that is not a JSON-RPC message: ${(e as Error).message.slice(0, 200)}`));
        continue;
      }
      if ('result' in message && this.discoverIds.has(message.id)) this.answeredDiscover = true;
      this.onmessage?.(message);
      if (this.refusal || !this.child) return;
    }
  }

  private refuse(seen: number): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.refusal = new Error(`MCP server '${this.o.server}' sent a message of more than ${this.o.maxMessageBytes} bytes (${seen} read before the refusal); the connection was closed. Ask the server's owner to send smaller messages.`);
    const child = this.child;
    child?.stdout?.destroy();
    child?.kill('SIGKILL');
    this.o.refused?.(this.refusal);
    this.onerror?.(this.refusal);
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    try {
      child.stdin?.end();
    } catch {
      // already gone
    }
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, EXIT_GRACE_MS);
      timer.unref();
    });
    await Promise.race([this.exited, grace]);
    clearTimeout(timer);
    if (this.child === child) {
      child.kill('SIGKILL');
      await this.exited;
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.refusal) return Promise.reject(this.refusal ?? new Error(`MCP server '${this.o.server}' is not connected.`));
    if ('method' in message && message.method === 'server/discover' && 'id' in message) this.discoverIds.add(message.id);
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }
}
