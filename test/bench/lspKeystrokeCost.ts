/**
 * The language server's validation of one open SKILL.md per keystroke, in process (no protocol, no pipes): the
 * SkillWorkspace the server uses, a connection that only counts publications, and the lsp bench's typing (a letter
 * added to and removed from the description line). Prints p50/p90/p99 of one validation and the CPU per keystroke:
 * what a change to the validation path costs, without the noise of two processes on a loaded machine. Bundle it the
 * way the product is bundled (tsx's transforms slow named functions):
 *   node -e "require('esbuild').buildSync({entryPoints:['test/bench/lspKeystrokeCost.ts'],outfile:'/tmp/k.js',bundle:true,platform:'node',format:'cjs'})"
 *   node /tmp/k.js [SKILL.md] [keystrokes]     (--cpu-prof on that command profiles it)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection, TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SkillWorkspace } from '../../server/skillWorkspace';
import { DEFAULT_SETTINGS } from '../../server/serverSettings';
import { nodeFileSystem } from '../../server/fileSystem';
import { asyncLocalDisk } from '../../src/core/host/localDisk';

async function main(): Promise<void> {
  const file = process.argv[2] ?? path.resolve(__dirname, '../../../shared/corpus/anthropic-skills/mcp-builder/SKILL.md');
  const keystrokes = Number(process.argv[3] ?? 3000);
  const uri = pathToFileURL(file).href;
  const text = fs.readFileSync(file, 'utf8');
  let doc = TextDocument.create(uri, 'markdown', 1, text);
  let sent = 0;
  const connection = { sendDiagnostics: () => void sent++, console: { warn: () => undefined, log: () => undefined, error: (e: string) => console.error(e) } } as unknown as Connection;
  const documents = { get: (u: string) => (u === uri ? doc : undefined), all: () => [doc] } as unknown as TextDocuments<TextDocument>;
  const ws = new SkillWorkspace(connection, documents, nodeFileSystem, asyncLocalDisk, { ...DEFAULT_SETTINGS, debounceMs: 0, scanWorkspace: false }, () => Promise.resolve());
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.startsWith('description:'));
  const col = lines[line].length;
  await ws.validateOpen(doc);
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0, v = 1; i < keystrokes; i++) {
    const insert = i % 2 === 0;
    doc = TextDocument.update(doc, [{ range: { start: { line, character: col }, end: { line, character: insert ? col : col + 1 } }, text: insert ? 'x' : '' }], ++v);
    const t0 = process.hrtime.bigint();
    await ws.validateOpen(doc);
    times.push(Number(process.hrtime.bigint() - t0) / 1e3);
  }
  const cpu = process.cpuUsage(cpu0);
  // The first fifth is warm-up.
  const s = times.slice(Math.floor(keystrokes / 5)).sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1);
  console.log(`validation per keystroke: p50 ${at(0.5)} us, p90 ${at(0.9)} us, p99 ${at(0.99)} us, CPU per keystroke ${((cpu.user + cpu.system) / keystrokes).toFixed(1)} us, ${sent} publications`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
