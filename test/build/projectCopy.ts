// A temporary copy of the project's sources for the tests that add something to it (a tool, a rule, a sandbox
// backend, an MCP request) and count the files the addition touched.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

/** Copies `parts` (folders of the project) and package.json into a new temp folder, node_modules linked. */
export function copyProject(prefix: string, parts: readonly string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const part of parts) fs.cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** Replaces `from` by `to` in `file` (which must hold it) and counts the file as touched. */
export function edit(file: string, from: string, to: string, touched: Set<string>): void {
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${path.basename(file)} still holds ${JSON.stringify(from.slice(0, 60))}`);
  fs.writeFileSync(file, text.replace(from, to));
  touched.add(file);
}
