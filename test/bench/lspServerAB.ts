/**
 * Interleaved A/B of built language servers on the lsp bench's keystroke loop (test/bench/lsp.bench.ts): each
 * round runs every server once, in turn, so machine load hits all alike. Prints per server the p50 keystroke ->
 * publishDiagnostics of each round and the server's CPU time per keystroke (utime+stime from /proc, Linux).
 * Usage: ROUNDS=8 node --import tsx test/bench/lspServerAB.ts /tmp/old-tree/dist/server.js dist/server.js
 * (an old tree: `git worktree add /tmp/old-tree <commit>`, symlink node_modules, `node scripts/build.mjs`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DidChangeTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { corpusRoot, fileUri, openDoc, startServer, type LspSession } from '../server/lspTestClient';
import { summarize } from './benchUtil';

const KEYSTROKES = 2000;
const WARMUP = 300;

/** CPU time (user + system) of a process so far, in ms: /proc/<pid>/stat fields 14 and 15, at 100 ticks a second. */
function cpuMs(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** The lsp bench's typing loop; returns the p50 latency (ms) and the server's CPU time per keystroke (us). */
async function keystrokes(s: LspSession, file: string): Promise<{ p50: number; cpuUs: number }> {
  const uri = fileUri(file);
  const text = fs.readFileSync(file, 'utf8');
  await openDoc(s, uri, text, 1);
  await s.waitForDiagnostics(uri, (p) => p.version === 1);
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.startsWith('description:'));
  const col = lines[line].length;
  const times: number[] = [];
  let cpu0 = 0;
  for (let i = 0, version = 1; i < WARMUP + KEYSTROKES; i++) {
    const v = ++version;
    const insert = i % 2 === 0;
    const range = { start: { line, character: col }, end: { line, character: insert ? col : col + 1 } };
    if (i === WARMUP) cpu0 = cpuMs(s.child.pid!);
    const t0 = process.hrtime.bigint();
    const answered = s.waitForDiagnostics(uri, (p) => p.version === v, 10_000);
    await s.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: v }, contentChanges: [{ range, text: insert ? 'x' : '' }] });
    await answered;
    if (i >= WARMUP) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    s.published.length = 0;
  }
  return { p50: summarize(times).p50, cpuUs: ((cpuMs(s.child.pid!) - cpu0) / KEYSTROKES) * 1000 };
}

async function main(): Promise<void> {
  const servers = process.argv.slice(2);
  if (servers.length === 0) throw new Error('lspServerAB: name one or more built dist/server.js files to compare');
  const rounds = Number(process.env.ROUNDS ?? 4);
  const file = path.join(corpusRoot, process.env.FILE ?? 'mcp-builder/SKILL.md');
  const results = new Map<string, { p50: number; cpuUs: number }[]>(servers.map((s) => [s, []]));
  for (let r = 0; r < rounds; r++) {
    for (const server of servers) {
      const s = await startServer({ server, initializationOptions: { debounceMs: 0, scanWorkspace: false } });
      results.get(server)!.push(await keystrokes(s, file));
      await s.stop();
    }
  }
  const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [server, rs] of results) {
    const p50s = rs.map((x) => x.p50);
    const cpus = rs.map((x) => x.cpuUs);
    console.log(`${server}: p50 median ${median(p50s).toFixed(3)} ms min ${Math.min(...p50s).toFixed(3)} [${p50s.map((x) => x.toFixed(3)).join(' ')}] | server CPU per keystroke median ${median(cpus).toFixed(0)} us [${cpus.map((x) => x.toFixed(0)).join(' ')}]`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
