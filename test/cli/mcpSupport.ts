// Shared by the MCP suites: a skills folder on disk, the real `dist/cli.js mcp` process, and the SDK's own
// Client connected to it over stdio or Streamable HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { startRedis, type TestRedis } from '../support/redisServer';
import { makeTempDir } from '../support/tempDir';

export const REPO = path.resolve(__dirname, '../..');
export const CLI = path.join(REPO, 'dist/cli.js');

/** sha256 in the extension's `sha256:<hex>` form. */
export const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Three skills: `alpha` (a reference and a script), `beta` (user-invocable with an argument hint), `gamma`. */
export function writeFixtureSkills(root: string): void {
  writeSkill(root, 'alpha', {
    body: '# Alpha\n\nRead references/guide.md, then run scripts/echo.sh.',
    files: { 'references/guide.md': '# Guide\n\nStep one.\n', 'scripts/echo.sh': 'echo "alpha says: $*"\n', 'assets/logo.bin': Buffer.from([0, 1, 2, 255, 254]) },
  });
  writeSkill(root, 'beta', { frontmatter: 'argument-hint: <file> <mode>', body: 'Review $0 in mode $1. All: $ARGUMENTS.' });
  writeSkill(root, 'gamma', { frontmatter: 'user-invocable: false', body: 'Gamma body.' });
}

/** The command line of a stdio server over `root` with its state in `state`. */
export function serverArgs(root: string, state: string, extra: string[] = []): string[] {
  return [CLI, 'mcp', '--no-defaults', '--root', root, '--state-dir', state, ...extra];
}

/** An SDK client connected over stdio to a fresh server process. */
export async function stdioClient(args: string[], env: Record<string, string> = {}): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

/** A server over HTTP; resolves with its URL from the "listening on" line on stderr (it may bind port 0). */
export function startHttpProcess(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: URL; stderr: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ child, url: new URL(m[1]), stderr: () => err, stop });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${err}`)));
  });
}

/** An SDK client over Streamable HTTP. */
export async function httpClient(url: URL, headers: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Result schemas of the Skills Extension's methods, for `client.request`. */
export const SkillEntrySchema = z.object({ uri: z.string(), frontmatter: z.record(z.string(), z.unknown()), resources: z.array(z.object({ uri: z.string(), digest: z.string() })) });
export const SkillsListResult = z.object({ skills: z.array(SkillEntrySchema) });
export const SkillsGetResult = z.object({ skill: SkillEntrySchema });
export const DirectoryResult = z.object({ resources: z.array(z.object({ uri: z.string(), name: z.string(), mimeType: z.string().optional() }).passthrough()) });

/** The text of a tool result's first content part. */
export function toolText(r: unknown): string {
  const c = (r as { content: { type: string; text?: string }[] }).content[0];
  return c.text ?? '';
}

/** Resolves when `check` returns a value, polling every 20 ms; rejects `ms` after the call with `what`. */
export async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The 2026-07-28 revision as a client speaks it: no initialize; these `_meta` fields on every request. */
export const MODERN = '2026-07-28';
export const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };

/**
 * Starts one `agent-skills mcp --http` replica per name over `skills`, one after the other, each with its own state
 * folder `<stateRoot>/state-<name>` and the shared `--state-store` (several replicas of one deployment), and `extra`
 * options; each stop is pushed onto `stops`.
 */
export async function startReplicas(skills: string, stateRoot: string, storeUrl: string, stops: (() => Promise<void>)[], names: readonly string[] = ['a', 'b'], extra: string[] = []): Promise<Awaited<ReturnType<typeof startHttpProcess>>[]> {
  const replicas: Awaited<ReturnType<typeof startHttpProcess>>[] = [];
  for (const name of names) {
    const r = await startHttpProcess(serverArgs(skills, path.join(stateRoot, `state-${name}`), ['--http', '127.0.0.1:0', '--state-store', storeUrl, ...extra]));
    stops.push(r.stop);
    replicas.push(r);
  }
  return replicas;
}

/**
 * The mocha hooks of a suite of replicas: the build once, a fresh temp folder per test with the fixture skills in
 * `skills` (and `setup`'s), and after each test every pushed stop in reverse, Redis if one was started, the folder.
 */
export function replicaSuite(prefix: string, setup: (skills: string) => void = () => {}): {
  readonly dir: string;
  readonly skills: string;
  readonly stops: (() => Promise<void>)[];
  startRedis(): Promise<TestRedis>;
  stopRedis(): Promise<void>;
} {
  let tmp: { dir: string; cleanup: () => void } | undefined;
  let redis: TestRedis | undefined;
  const stops: (() => Promise<void>)[] = [];
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir(prefix);
    writeFixtureSkills(path.join(tmp.dir, 'skills'));
    setup(path.join(tmp.dir, 'skills'));
  });
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
    await redis?.stop();
    redis = undefined;
    tmp?.cleanup();
  });
  const dir = () => {
    if (!tmp) throw new Error('replicaSuite: the folder exists only inside a test');
    return tmp.dir;
  };
  return {
    get dir() {
      return dir();
    },
    get skills() {
      return path.join(dir(), 'skills');
    },
    stops,
    async startRedis() {
      redis = await startRedis();
      return redis;
    },
    async stopRedis() {
      await redis?.stop();
      redis = undefined;
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One raw POST to the MCP endpoint, body sent exactly as given (a string as is, anything else as JSON). */
export function postJson(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json | undefined; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let json: Json | undefined;
        try {
          json = text ? (JSON.parse(text) as Json) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, json, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** A 2026-07-28 request over HTTP with the headers the transport requires mirrored from the body (`headers` overrides them). */
export function modernPost(url: URL, id: number, method: string, params: Json = {}, headers: Record<string, string> = {}) {
  const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined;
  return postJson(url, { jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }, { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}), ...headers });
}

/** A stdio server spoken to line by line (raw JSON-RPC): send any message, wait for the answer to an id. */
export function rawStdio(args: string[], env: Record<string, string> = {}): { child: ChildProcess; notifications: Json[]; send(m: Json): void; answer(id: number, ms?: number): Promise<Json>; forget(id: number): void; request(method: string, params?: Json): Promise<Json>; stop(): Promise<void> } {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
  const answers = new Map<number, Json>();
  const waiters = new Map<number, (m: Json) => void>();
  const notifications: Json[] = [];
  let buf = '';
  let next = 1_000_000;
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const m = JSON.parse(buf.slice(0, nl)) as Json;
      buf = buf.slice(nl + 1);
      if (m.id === undefined) notifications.push(m);
      if (typeof m.id !== 'number') continue;
      const w = waiters.get(m.id);
      if (w) {
        waiters.delete(m.id);
        w(m);
      } else answers.set(m.id, m);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const send = (m: Json) => child.stdin!.write(`${JSON.stringify(m)}\n`);
  const answer = (id: number, ms = 15_000) => {
    const have = answers.get(id);
    if (have) return Promise.resolve(have);
    return new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to request ${id} within ${ms} ms`)), ms);
      waiters.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  };
  return {
    child,
    notifications,
    send,
    answer,
    forget: (id) => answers.delete(id),
    request(method, params = {}) {
      const id = next++;
      send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } });
      return answer(id);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin!.end();
        child.kill('SIGTERM');
      }
      await exited;
    },
  };
}
