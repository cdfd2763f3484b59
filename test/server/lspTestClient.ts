/** A real LSP client over the stdio of a spawned server process, for the server tests and the bench. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  ConfigurationRequest,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { pathToFileURL } from 'node:url';

export const repoRoot = path.resolve(__dirname, '../..');
export const serverPath = path.join(repoRoot, 'dist/server.js');
export const corpusRoot = path.resolve(repoRoot, '../shared/corpus/anthropic-skills');

export const fileUri = (p: string): string => pathToFileURL(p).href;

/** A spawned language server and the client side of its connection. */
export interface LspSession {
  child: ChildProcess;
  conn: ProtocolConnection;
  init: InitializeResult;
  /** Every publishDiagnostics received, in order. */
  published: PublishDiagnosticsParams[];
  /** Resolves with the first publishDiagnostics (already received or future) for `uri` that satisfies `pred`. */
  waitForDiagnostics(uri: string, pred?: (p: PublishDiagnosticsParams) => boolean, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  /** Resolves with the first notification named `method` (already received or future); only `skills/workspaceScanned` and `window/logMessage` are recorded. */
  waitForNotification<T>(method: string, timeoutMs?: number): Promise<T>;
  /** Sends shutdown + exit and waits for the process to end; returns its exit code. */
  stop(): Promise<number | null>;
  stderr: () => string;
  /** Messages the server logged through window/logMessage. */
  logs: () => string[];
}

export interface StartOptions {
  server?: string;
  workspaceFolders?: string[];
  initializationOptions?: Record<string, unknown>;
  /** Answer to workspace/configuration for the `agentSkills` section; omit to not claim the capability. */
  configuration?: unknown;
  /** Claim that the client applies document changes and file renames in a WorkspaceEdit (as VS Code does). */
  resourceOperations?: boolean;
}

export async function startServer(opts: StartOptions = {}): Promise<LspSession> {
  const child = spawn(process.execPath, [opts.server ?? serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  const waiters: { uri: string; pred: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  const noteWaiters = new Map<string, ((v: unknown) => void)[]>();
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].uri === p.uri && waiters[i].pred(p)) waiters.splice(i, 1)[0].resolve(p);
    }
  });
  const received = new Map<string, unknown[]>();
  for (const method of ['skills/workspaceScanned', 'window/logMessage']) {
    conn.onNotification(method, (params: unknown) => {
      received.set(method, [...(received.get(method) ?? []), params]);
      const list = noteWaiters.get(method) ?? [];
      noteWaiters.delete(method);
      for (const r of list) r(params);
    });
  }
  conn.onRequest(RegistrationRequest.type, () => undefined);
  conn.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => opts.configuration ?? null));
  conn.listen();
  const folders = (opts.workspaceFolders ?? []).map((f) => ({ uri: fileUri(f), name: path.basename(f) }));
  const init = await conn.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: folders[0]?.uri ?? null,
    workspaceFolders: folders,
    capabilities: {
      workspace: {
        configuration: opts.configuration !== undefined,
        didChangeWatchedFiles: { dynamicRegistration: true },
        ...(opts.resourceOperations ? { workspaceEdit: { documentChanges: true, resourceOperations: ['rename' as const] } } : {}),
      },
      textDocument: { publishDiagnostics: { versionSupport: true } },
    },
    initializationOptions: opts.initializationOptions,
  });
  await conn.sendNotification(InitializedNotification.type, {});
  const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}; server stderr: ${err.slice(-2000)}`)), ms);
      p.then((v) => (clearTimeout(t), resolve(v)), (e) => (clearTimeout(t), reject(e)));
    });
  return {
    child,
    conn,
    init,
    published,
    stderr: () => err,
    logs: () => (received.get('window/logMessage') ?? []).map((m) => String((m as { message?: unknown }).message)),
    waitForDiagnostics(uri, pred = () => true, timeoutMs = 10_000) {
      const done = published.find((p) => p.uri === uri && pred(p));
      if (done) return Promise.resolve(done);
      return withTimeout(new Promise((resolve) => waiters.push({ uri, pred, resolve })), timeoutMs, `diagnostics for ${uri}`);
    },
    waitForNotification<T>(method: string, timeoutMs = 10_000) {
      const got = received.get(method);
      if (got && got.length > 0) return Promise.resolve(got[0] as T);
      return withTimeout(
        new Promise<T>((resolve) => noteWaiters.set(method, [...(noteWaiters.get(method) ?? []), (v) => resolve(v as T)])),
        timeoutMs,
        method,
      );
    },
    async stop() {
      const exited = new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) resolve(child.exitCode);
        else child.once('exit', (code) => resolve(code));
      });
      try {
        await withTimeout(conn.sendRequest(ShutdownRequest.type), 5000, 'shutdown');
        await conn.sendNotification(ExitNotification.type);
      } catch {
        child.kill();
      }
      const code = await withTimeout(exited, 5000, 'server exit').catch(() => (child.kill('SIGKILL'), null));
      conn.dispose();
      return code;
    },
  };
}

/** Opens a document; `version` starts at 1. */
export async function openDoc(s: LspSession, uri: string, text: string, version = 1): Promise<void> {
  await s.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'skill', version, text } });
}

/** Replaces the whole text of an open document. */
export async function changeDoc(s: LspSession, uri: string, text: string, version: number): Promise<void> {
  await s.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
}

/** Applies LSP text edits to a text (edits must not overlap). */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (p: { line: number; character: number }) => (p.line >= lineStarts.length ? text.length : Math.min(lineStarts[p.line] + p.character, text.length));
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}
