// A client of one MCP server's skills (Skills Extension, SEP-2640): lists them with `skills/list`, and fetches a
// skill only when it is first used: every file of its advertised resource set, each checked against the
// advertised size (when `resources/list` gave one) and sha256 digest, SKILL.md's frontmatter against the
// listed frontmatter. Anything that does not match is refused and kept as a problem. Verified files are written
// (temp folder + rename) into a cache folder that no discovery scans; they are never executed.
// Bounded while reading: no message larger than MAX_MESSAGE_BYTES is held (the transports refuse it as it streams),
// and every request has a timeout whose error names the server, the request and the time waited.
import * as fsSync from 'node:fs';
import * as path from 'node:path';
import { SdkError, SdkErrorCode, specTypeSchemas, StreamableHTTPClientTransport, type RequestOptions } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { digestOf } from '../edit/versionRef';
import type { WritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { parseSkillText } from '../skill/parseSkillText';
import { nameFormProblem } from '../skill/rules/name';
import { boundedFetch } from './boundedFetch';
import { BoundedStdioTransport } from './boundedStdioTransport';
import { launchEnv, type McpLaunch } from './mcpLaunch';
import { parseSkillUri } from './skillUri';
import { connectWire, type McpWire } from './mcpWire';
import { followPages } from './listPages';

const EXTENSION = 'io.modelcontextprotocol/skills';
/** Bounds on what one server may make us hold. */
const LIMITS = { skills: 2000, filesPerSkill: 1000, fileBytes: 16 * 1024 * 1024, skillBytes: 64 * 1024 * 1024, listPages: 100, resources: 200_000, listBytes: 64 * 1024 * 1024 };
/** Largest message read from a server: a largest file as base64 (4/3 of its bytes) plus room for the JSON around it. */
export const MAX_MESSAGE_BYTES = Math.ceil((LIMITS.fileBytes * 4) / 3) + 1024 * 1024;

/**
 * How long a server may take: each request; a server started over stdio, to give its first answer (the
 * `server/discover` probe); connecting (the handshake and listing) in all; and fetching one skill in all.
 */
export interface McpTimeouts {
  requestMs: number;
  startMs: number;
  connectMs: number;
  fetchSkillMs: number;
}
/**
 * Deadlines for a server that hangs or stalls on purpose, not a measure of a healthy one: a server that answers
 * never waits for them. On a 2-core machine at load 25 (CI while other suites run; times 10 to 20 times a quiet
 * machine's) our own `agent-skills mcp` over 153 skills took 17 to 24 s to give its first answer over stdio (0.5 to
 * 2 s when quiet), and its first answer over HTTP took more than 10 s: with a 10 s request and probe deadline it was
 * taken for a legacy server or given up. So:
 * - requestMs 30 s (the MCP SDK's own default is 60 s);
 * - startMs 60 s: a stdio server is a process we have just spawned, and its silence while it loads says nothing
 *   about its era (on stdio a probe that times out falls back to `initialize`). A server that answers the probe (a
 *   result or an error, as JSON-RPC asks) costs no wait; only one that stays silent to an unknown request waits
 *   this long, once, before the fallback;
 * - connectMs bounds the handshake and the listing together; fetchSkillMs all the reads of one skill.
 */
export const DEFAULT_MCP_TIMEOUTS: McpTimeouts = { requestMs: 30_000, startMs: 60_000, connectMs: 150_000, fetchSkillMs: 90_000 };

const entrySchema = z.object({
  uri: z.string().max(4096),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(z.object({ uri: z.string().max(4096), digest: z.string().regex(/^sha256:[0-9a-f]{64}$/) })).max(LIMITS.filesPerSkill).optional(),
});
const listSchema = z.object({ skills: z.array(entrySchema).max(LIMITS.skills), nextCursor: z.string().optional() });
export type McpSkillEntry = z.infer<typeof entrySchema>;

/** One skill a server lists. */
export interface McpSkill {
  server: string;
  name: string;
  description: string;
  /** `mcp:<server>:<name>` */
  id: string;
  entry: McpSkillEntry;
}

/** What went wrong with a server or one of its skills, for `list` and the Skills view. */
export interface McpProblem {
  server: string;
  skill?: string;
  message: string;
}

/** Connection state of a server. */
export type McpServerState = { state: 'connecting' } | { state: 'up'; skills: number } | { state: 'down'; reason: string } | { state: 'no-skills'; reason: string };

/** A server that broke a bound or a deadline; its message names the server and what it did. */
export class McpServerError extends Error {}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** The skills of one MCP server. */
export class McpSkillsClient {
  private client: McpWire | undefined;
  private skills: McpSkill[] = [];
  private sizes = new Map<string, number>();
  private fetched = new Map<string, Promise<string>>();
  /** Why the transport closed the connection (a message over the limit), when it did. */
  private refusal: Error | undefined;
  private stdio: BoundedStdioTransport | undefined;
  private httpBytesRead: number | undefined;
  readonly problems: McpProblem[] = [];
  state: McpServerState = { state: 'connecting' };
  private readonly timeouts: McpTimeouts;

  constructor(
    readonly config: McpLaunch,
    /** Folder for verified copies: `<cacheDir>/<server>/<skill>/`. Must lie outside every skill root. */
    private readonly cacheDir: string,
    /** Where the copies are written: the host the runtime reads skills through (the local disk by default). */
    private readonly files: WritableHost = localDisk,
    timeouts: Partial<McpTimeouts> = {},
  ) {
    this.timeouts = { ...DEFAULT_MCP_TIMEOUTS, ...timeouts };
  }

  /** Bytes read from the server so far (a stdio server's output, or HTTP response bodies): what a bound let in. */
  get bytesRead(): number | undefined {
    return this.stdio ? this.stdio.bytesRead : this.httpBytesRead;
  }

  /**
   * Connects in the server's era (mcpWire.ts): 2026-07-28 when it speaks it, else the initialize handshake
   * (`modernOnly`: 2026-07-28 or nothing). The probe waits `probeMs`, the initialize request `o.timeout`.
   */
  private wire(o: RequestOptions, probeMs: number, modernOnly: boolean): Promise<McpWire> {
    const c = this.config;
    const refused = (e: Error) => (this.refusal ??= e);
    if ('url' in c) {
      const counted = (n: number) => (this.httpBytesRead = (this.httpBytesRead ?? 0) + n);
      const bounded = boundedFetch(c.name, MAX_MESSAGE_BYTES, refused, globalThis.fetch, counted);
      const headers = c.headers ?? {};
      return connectWire(new StreamableHTTPClientTransport(new URL(c.url), { requestInit: { headers }, fetch: bounded }), o, probeMs, modernOnly);
    }
    // A plugin's server gets its PLUGIN_DATA folder made before it starts (Agent Plugins 1.0 §9.1).
    if (c.env?.PLUGIN_DATA) fsSync.mkdirSync(c.env.PLUGIN_DATA, { recursive: true, mode: 0o700 });
    this.stdio = new BoundedStdioTransport({ server: c.name, command: c.command, args: c.args, env: launchEnv(c), cwd: c.cwd, maxMessageBytes: MAX_MESSAGE_BYTES, refused });
    return connectWire(this.stdio, o, probeMs, modernOnly);
  }

  /**
   * The handshake within the connect budget. A server started over stdio gets `startMs` for its first answer (it
   * may still be loading: see DEFAULT_MCP_TIMEOUTS); over HTTP the server is already listening, and the probe is
   * one request. On stdio a probe that times out means a legacy server (2026-07-28 versioning): `initialize`
   * follows on the same process. A timeout names both waits.
   *
   * A modern server slower than the probe answers it late, after that fallback was sent; a dual-era one then
   * answers `initialize` too (we speak 2025-11-25 to it), but a 2026-07-28-only one refuses it. Its late answer
   * proves its era, so it gets one more start, held to 2026-07-28, within what is left of the budget.
   */
  private async handshake(budget: () => number): Promise<McpWire> {
    try {
      return await this.attempt(budget, false);
    } catch (e) {
      const first = this.stdio;
      if (this.refusal || !first?.answeredDiscover) throw e;
      await first.close();
      try {
        return await this.attempt(budget, true);
      } catch (again) {
        const why = again instanceof McpServerError ? again.message : `MCP server '${this.config.name}' is not reachable: ${(again as Error).message}`;
        throw new McpServerError(`${why} (It had answered server/discover only after the probe gave up and refused initialize, so it was started again for 2026-07-28 alone.)`);
      }
    }
  }

  private async attempt(budget: () => number, modernOnly: boolean): Promise<McpWire> {
    const name = this.config.name;
    const left = budget();
    if (left <= 0) throw new McpServerError(`MCP server '${name}' ran out of time before its handshake; it is too slow to use.`);
    const requestMs = Math.min(this.timeouts.requestMs, left);
    // A server known to be modern (the second start) may use the rest of the budget: its silence is only slowness.
    const probeMs = modernOnly ? left : Math.min('url' in this.config ? this.timeouts.requestMs : this.timeouts.startMs, left);
    try {
      return await this.wire({ timeout: requestMs }, probeMs, modernOnly);
    } catch (e) {
      if (this.refusal) throw new McpServerError(this.refusal.message);
      if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) {
        // On stdio a silent probe is followed by initialize, each with its wait; over HTTP either one timed out.
        const waits = 'url' in this.config ? `server/discover or initialize within ${seconds(requestMs)}` : `server/discover within ${seconds(probeMs)} of its start, nor initialize within ${seconds(requestMs)} after that`;
        throw new McpServerError(`MCP server '${name}' did not answer ${waits}; the request was abandoned. Check that the server is running and responsive.`);
      }
      throw e;
    }
  }

  /** The era the server is spoken to in (after connect). */
  get era(): McpWire['era'] | undefined {
    return this.client?.era;
  }

  /**
   * One request with its deadline: `budget` is the time left of the whole operation (connect or one fetch). A
   * timeout or a refused message becomes an {@link McpServerError} naming the server, `what` and the time.
   */
  private async ask<T>(what: string, budget: () => number, run: (o: RequestOptions) => Promise<T>): Promise<T> {
    const name = this.config.name;
    const left = budget();
    if (left <= 0) throw new McpServerError(`MCP server '${name}' ran out of time before ${what}; it is too slow to use.`);
    const timeout = Math.min(this.timeouts.requestMs, left);
    try {
      return await run({ timeout });
    } catch (e) {
      if (this.refusal) throw new McpServerError(this.refusal.message);
      if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) {
        throw new McpServerError(`MCP server '${name}' did not answer ${what} within ${seconds(timeout)}; the request was abandoned. Check that the server is running and responsive.`);
      }
      throw e;
    }
  }

  /** Connects and lists the skills; a failure leaves the server `down` with the reason (never throws). */
  async connect(): Promise<void> {
    const name = this.config.name;
    const end = Date.now() + this.timeouts.connectMs;
    const budget = () => end - Date.now();
    try {
      const client = await this.handshake(budget);
      this.client = client;
      const caps = client.capabilities as { extensions?: Record<string, unknown> } | undefined;
      if (!caps?.extensions?.[EXTENSION]) {
        this.state = { state: 'no-skills', reason: `MCP server '${name}' does not declare the skills extension (${EXTENSION}); it serves no skills.` };
        return;
      }
      const skills: McpSkill[] = [];
      const listed = await followPages(name, 'skills/list', { pages: LIMITS.listPages, items: LIMITS.skills, bytes: LIMITS.listBytes }, (cursor) =>
        this.ask('skills/list', budget, (o) => client.request('skills/list', cursor ? { cursor } : {}, listSchema, o)).then((r) => ({ items: r.skills, nextCursor: r.nextCursor })),
      );
      for (const e of listed.items) {
        const s = this.skillOf(e);
        if (s) skills.push(s);
      }
      if (listed.problem) this.problems.push({ server: name, message: listed.problem });
      this.skills = skills;
      try {
        // Sizes are optional in the extension; when the server lists resources, each fetch is also held to its size.
        const all = await followPages(name, 'resources/list', { pages: LIMITS.listPages, items: LIMITS.resources, bytes: LIMITS.listBytes }, (cursor) =>
          this.ask('resources/list', budget, (o) => client.request('resources/list', cursor ? { cursor } : {}, specTypeSchemas.ListResourcesResult, o)).then((r) => ({ items: r.resources, nextCursor: r.nextCursor })),
        );
        for (const r of all.items) if (typeof r.size === 'number') this.sizes.set(r.uri, r.size);
        if (all.problem) this.problems.push({ server: name, message: all.problem });
      } catch (e) {
        // A server that cannot list resources still gets digest checks; one that broke a bound is dropped.
        if (this.refusal || e instanceof McpServerError) throw e;
      }
      this.state = { state: 'up', skills: skills.length };
    } catch (e) {
      this.state = { state: 'down', reason: e instanceof McpServerError ? e.message : `MCP server '${name}' is not reachable: ${(e as Error).message}` };
      await this.close();
    }
  }

  private skillOf(e: McpSkillEntry): McpSkill | undefined {
    const server = this.config.name;
    const name = typeof e.frontmatter.name === 'string' ? e.frontmatter.name : '';
    let uri;
    try {
      uri = parseSkillUri(e.uri);
    } catch (err) {
      this.problems.push({ server, skill: name || undefined, message: `Skipped a skill of '${server}': ${(err as Error).message}` });
      return undefined;
    }
    // A skill below another skill's folder is nested in it, and activating a nested skill needs the user's own
    // consent (SEP-2640, Nested Skills), which this host does not ask for: it is not activated, only reported; its
    // files stay readable as supporting files of the enclosing skill.
    if (uri.path !== 'SKILL.md' && uri.path.endsWith('/SKILL.md')) {
      this.problems.push({ server, skill: name || undefined, message: `Skipped ${e.uri} from '${server}': it lies below skill://${uri.skill}/. A skill nested in another ('${uri.skill}') is not activated here, since that needs the user's own consent (SEP-2640, Nested Skills), which this host does not ask for; its files stay readable as files of '${uri.skill}'. A skill under a path prefix is not served here either: ask the server's owner to serve it as skill://${name || '<name>'}/SKILL.md.` });
      return undefined;
    }
    if (!name || uri.path !== 'SKILL.md' || uri.skill !== name) {
      this.problems.push({ server, skill: name || undefined, message: `Skipped ${e.uri} from '${server}': its URI must be skill://<name>/SKILL.md with <name> equal to frontmatter.name ('${name}').` });
      return undefined;
    }
    // A name is an identity: one spelled as another skill's id (`mcp:other:pdf`) or as another name after NFKC
    // (full-width `ｐｄｆ`) would be taken for that skill, so only a well-formed name is listed.
    const malformed = nameFormProblem(name);
    if (malformed) {
      this.problems.push({ server, skill: name, message: `Skipped ${e.uri} from '${server}': ${malformed} A served skill's name follows the rules of a local one (lowercase letters, digits, single inner hyphens), so it cannot pose as another skill or id.` });
      return undefined;
    }
    if (!e.resources) {
      this.problems.push({ server, skill: name, message: `Skipped ${e.uri} from '${server}': it has no resources list, so its content cannot be verified.` });
      return undefined;
    }
    const description = typeof e.frontmatter.description === 'string' ? e.frontmatter.description : '';
    return { server, name, description, id: `mcp:${server}:${name}`, entry: e };
  }

  /** The skills listed at connect. */
  list(): readonly McpSkill[] {
    return this.skills;
  }

  /** The folder a skill is (or will be) cached in. */
  skillDir(name: string): string {
    return path.join(this.cacheDir, this.config.name, name);
  }

  /** Fetches and verifies a skill once; resolves with its cache folder, or rejects with what did not match. */
  fetchSkill(name: string): Promise<string> {
    let p = this.fetched.get(name);
    if (!p) {
      p = this.download(name);
      this.fetched.set(name, p);
      p.catch((e: Error) => {
        this.fetched.delete(name);
        this.problems.push({ server: this.config.name, skill: name, message: e.message });
      });
    }
    return p;
  }

  private async download(name: string): Promise<string> {
    const server = this.config.name;
    const skill = this.skills.find((s) => s.name === name);
    if (!skill || !this.client) throw new Error(`MCP server '${server}' serves no skill '${name}'${this.state.state === 'down' ? ` (${this.state.reason})` : ''}.`);
    const files: { rel: string; bytes: Buffer }[] = [];
    let total = 0;
    const client = this.client;
    const end = Date.now() + this.timeouts.fetchSkillMs;
    const budget = () => end - Date.now();
    // Each file once: two URIs of one path (`SKILL.md` and `%53KILL.md`) would be two verified files, the last one
    // written over the first, so the checks would pass on content that is not what the cache keeps.
    const listedAs = new Map<string, string>();
    for (const r of skill.entry.resources ?? []) {
      const parsed = parseSkillUri(r.uri);
      if (parsed.skill !== name || !parsed.path) throw new Error(`Skill '${name}' of '${server}' lists ${r.uri}, which is not a file inside skill://${name}/; the skill is refused.`);
      const twice = listedAs.get(parsed.path);
      if (twice !== undefined) throw new Error(`Skill '${name}' of '${server}' lists the file ${parsed.path} twice (${twice} and ${r.uri}); the skill is refused. Ask the server's owner to list each file once.`);
      listedAs.set(parsed.path, r.uri);
    }
    for (const r of skill.entry.resources ?? []) {
      const parsed = parseSkillUri(r.uri);
      const res = await this.ask(`resources/read ${r.uri} (skill '${name}', at most ${seconds(this.timeouts.fetchSkillMs)} in all)`, budget, (o) => client.request('resources/read', { uri: r.uri }, specTypeSchemas.ReadResourceResult, o));
      const c = res.contents[0] as { text?: string; blob?: string } | undefined;
      if (!c || (c.text === undefined && c.blob === undefined)) throw new Error(`Skill '${name}' of '${server}': ${r.uri} came back empty; the skill is refused.`);
      const bytes = c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.blob as string, 'base64');
      const size = this.sizes.get(r.uri);
      if (bytes.length > LIMITS.fileBytes || (size !== undefined && size !== bytes.length)) {
        throw new Error(`Skill '${name}' of '${server}': ${r.uri} is ${bytes.length} bytes but ${size !== undefined ? `was advertised as ${size}` : `the limit is ${LIMITS.fileBytes}`}; the skill is refused. Ask the server's owner to republish it.`);
      }
      const digest = digestOf(bytes);
      if (digest !== r.digest) throw new Error(`Skill '${name}' of '${server}': ${r.uri} has digest ${digest}, not the advertised ${r.digest}; the content is refused (changed, stale or tampered with). Reconnect to refresh the listing; if it persists, tell the server's owner.`);
      total += bytes.length;
      if (total > LIMITS.skillBytes) throw new Error(`Skill '${name}' of '${server}' is larger than ${LIMITS.skillBytes} bytes; it is refused.`);
      files.push({ rel: parsed.path, bytes });
    }
    const skillMd = files.find((f) => f.rel === 'SKILL.md');
    if (!skillMd) throw new Error(`Skill '${name}' of '${server}' lists no SKILL.md among its resources; it is refused.`);
    const props = parseSkillText(skillMd.bytes.toString('utf8')).properties;
    const keys = new Set([...Object.keys(props), ...Object.keys(skill.entry.frontmatter)]);
    for (const k of keys) {
      if (JSON.stringify(props[k]) !== JSON.stringify(skill.entry.frontmatter[k])) {
        throw new Error(`Skill '${name}' of '${server}': SKILL.md's frontmatter field '${k}' differs from the listing; the skill is refused.`);
      }
    }
    // Written beside the final folder and renamed into place, so a reader never sees half a skill.
    const dir = this.skillDir(name);
    const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    for (const f of files) await this.files.writeFile(path.join(tmp, ...f.rel.split('/')), f.bytes, { mode: 0o644 });
    await this.files.remove(dir);
    await this.files.rename(tmp, dir);
    return dir;
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.close().catch(() => undefined);
  }
}
