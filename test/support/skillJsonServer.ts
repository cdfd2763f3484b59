// The set-up the language-server tests of a skill's JSON files (evals/evals.json, evals/trigger-queries.json) share:
// a fresh workspace holding one skill, the real server over stdio started on it for each test, the document's URI,
// and "open or change the document, then wait for its findings at that version".
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { changeDoc, fileUri, openDoc, startServer, type LspSession } from '../server/lspTestClient';
import { BUILD_TIMEOUT_MS, ensureBuilt } from './ensureBuilt';
import { fileWriter } from './tempDir';

export interface SkillJsonServer {
  /** The workspace folder of the current test. */
  readonly ws: string;
  /** The server session of the current test. */
  readonly s: LspSession;
  /** The URI of the JSON document under test. */
  readonly uri: string;
  /** Writes a file under the workspace (relative path). */
  write(rel: string, text: string): void;
  /** Opens the document (`open`, by default at version 1) or changes it, and returns its findings at `version`. */
  diagnosticsOf(text: string, version: number, open?: boolean): Promise<Diagnostic[]>;
}

/**
 * Registers mocha hooks in the calling `describe`: the build once, then per test a temp workspace with `files`
 * (relative path → text), a server on it, and `document` (relative path) as the URI under test; removed after.
 */
export function skillJsonServer(opts: { tmpPrefix: string; files: Record<string, string>; document: string }): SkillJsonServer {
  let ws = '';
  let s: LspSession | undefined;
  let uri = '';
  const write = fileWriter(() => ws);
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(async () => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), opts.tmpPrefix));
    for (const [rel, text] of Object.entries(opts.files)) write(rel, text);
    uri = fileUri(path.join(ws, ...opts.document.split('/')));
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, scanWorkspace: false } });
  });
  afterEach(async () => {
    await s?.stop();
    s = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
  });
  const session = (): LspSession => {
    if (!s) throw new Error('skillJsonServer: no server outside a test (use it inside it/beforeEach)');
    return s;
  };
  return {
    get ws() {
      return ws;
    },
    get s() {
      return session();
    },
    get uri() {
      return uri;
    },
    write,
    async diagnosticsOf(text, version, open = version === 1) {
      if (open) await openDoc(session(), uri, text, version);
      else await changeDoc(session(), uri, text, version);
      return (await session().waitForDiagnostics(uri, (p) => p.version === version)).diagnostics;
    },
  };
}
