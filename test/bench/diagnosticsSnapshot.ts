/**
 * Everything a build says about the real skills, as one text to compare byte for byte between two builds: `validate
 * --json` (lenient and strict) over every skill of ../shared/corpus and ../shared/realworld, and every
 * publishDiagnostics of the language server for each of their SKILL.md files: opened, then typed into (a letter added
 * to and removed from the description line, then from a body line), so diagnostics computed from reused work are
 * compared with those of a fresh check. A performance change must leave this text unchanged.
 * Usage: node --import tsx test/bench/diagnosticsSnapshot.ts <dist folder> <output file>
 * (the dist of another commit: `git worktree add /tmp/old <commit>`, symlink node_modules, `node scripts/build.mjs`).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { fileUri, openDoc, repoRoot, startServer } from '../server/lspTestClient';

const ROOTS = ['corpus', 'realworld'].map((r) => path.resolve(repoRoot, '../shared', r));

function skillFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...skillFiles(p));
    else if (e.name === 'SKILL.md') out.push(p);
  }
  return out;
}

function validateJson(dist: string, folders: string[], strict: boolean): string {
  const r = spawnSync(process.execPath, [path.join(dist, 'cli.js'), 'validate', '--json', ...(strict ? ['--strict'] : []), ...folders], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`validate exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** The edits typed into one file: a letter at the end of `line`, then the same letter removed. */
function typeAt(text: string, line: number): { range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string }[] {
  const col = text.split('\n')[line].replace(/\r$/, '').length;
  const at = { line, character: col };
  return [
    { range: { start: at, end: at }, text: 'x' },
    { range: { start: at, end: { line, character: col + 1 } }, text: '' },
  ];
}

async function lspDiagnostics(dist: string, files: string[]): Promise<string[]> {
  const s = await startServer({ server: path.join(dist, 'server.js'), initializationOptions: { debounceMs: 0, scanWorkspace: false } });
  const out: string[] = [];
  const record = (ps: PublishDiagnosticsParams[]) => {
    for (const p of ps) out.push(JSON.stringify(p));
    ps.length = 0;
  };
  try {
    for (const file of files) {
      const uri = fileUri(file);
      const text = fs.readFileSync(file, 'utf8');
      await openDoc(s, uri, text, 1);
      await s.waitForDiagnostics(uri, (p) => p.version === 1);
      const lines = text.split('\n');
      const description = lines.findIndex((l) => l.startsWith('description:'));
      const body = Math.floor(lines.length * 0.75);
      const edits = [...(description >= 0 ? typeAt(text, description) : []), ...typeAt(text, body)];
      let version = 1;
      for (const change of edits) {
        const v = ++version;
        const answered = s.waitForDiagnostics(uri, (p) => p.version === v);
        await s.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: v }, contentChanges: [change] });
        await answered;
      }
      record(s.published);
      await s.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      // Closing publishes the saved file's problems again (unversioned): wait for them before the next file.
      await s.waitForDiagnostics(uri, (p) => p.version === undefined || p.version === null);
      record(s.published);
    }
  } finally {
    await s.stop();
  }
  return out;
}

async function main(): Promise<void> {
  const [dist, outFile] = process.argv.slice(2);
  if (!dist || !outFile) throw new Error('usage: diagnosticsSnapshot.ts <dist folder> <output file>');
  const files = ROOTS.flatMap(skillFiles);
  const folders = files.map((f) => path.dirname(f));
  const parts = [
    `# validate --json over ${folders.length} skills`,
    validateJson(dist, folders, false),
    '# validate --json --strict',
    validateJson(dist, folders, true),
    `# language server, ${files.length} SKILL.md files`,
    ...(await lspDiagnostics(dist, files)),
  ];
  fs.writeFileSync(outFile, `${parts.join('\n')}\n`);
  console.log(`${outFile}: ${files.length} skills, ${fs.statSync(outFile).size} bytes`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
