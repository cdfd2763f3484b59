// Files are named for the one thing they hold, so no two files of src/ and server/ share a name (barrels, `index.ts`,
// excepted): a search for a name then finds one file, and a reader never confuses, say, the catalog's tool inputs
// with the runtime's. And one meaning per word: an exported name with `Host` in it is the file host (src/core/host)
// or built on it, never an agent a skill is linted for (an `Agent...`) or a front end (a `ToolFrontEnd`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sourceFiles, SCRIPT_FILE } from '../support/sourceFiles';

const ROOT = path.resolve(__dirname, '../..');

/** Names held by more than one file, with the files. */
export function sharedNames(files: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const f of files) {
    const name = path.basename(f).replace(/\.(ts|mts|cts|js|cjs|mjs)$/, '');
    if (name === 'index') continue;
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  return [...byName].filter(([, fs]) => fs.length > 1).map(([n, fs]) => `${n}: ${fs.join(', ')}`);
}

describe('file names: no two files of src/ and server/ share a name', () => {
  it('finds a shared name (and ignores barrels)', () => {
    assert.deepEqual(sharedNames(['src/a/types.ts', 'src/b/types.ts', 'src/a/index.ts', 'src/b/index.ts', 'src/c/one.ts']), ['types: src/a/types.ts, src/b/types.ts']);
  });

  it('none does', () => {
    const files = [...sourceFiles(path.join(ROOT, 'src'), SCRIPT_FILE), ...sourceFiles(path.join(ROOT, 'server'), SCRIPT_FILE)].map((f) => path.relative(ROOT, f));
    assert.ok(files.length > 100, `the tree was read (${files.length} files)`);
    assert.deepEqual(sharedNames(files), []);
  });
});

/** Exported names with `Host` that mean something else by the words of their own trade, each with why. */
const OTHER_HOSTS: Record<string, string> = {
  isLoopbackHost: "HTTP's Host header (the MCP server's DNS-rebinding guard)",
  allowedHostEnv: "the machine's environment outside the sandbox",
};

/** Exported `...Host...` names of `text` (the file at `file`) that are not the file host: not in src/core/host, and the file does not use it. */
export function otherHostNames(file: string, text: string): string[] {
  const names = [...text.matchAll(/export\s+(?:declare\s+)?(?:interface|type|class|function|const|let|enum)\s+(\w*Host\w*)/g)].map((m) => m[1]);
  const onFileHost = file.split(path.sep).join('/').startsWith('src/core/host/') || /\b(?:Sync)?(?:SkillsHost|WritableHost)\b/.test(text);
  return names.filter((n) => !(n in OTHER_HOSTS) && !onFileHost).map((n) => `${file}: ${n}`);
}

describe('names: "host" is the file host', () => {
  it('finds a Host name in a file that has nothing to do with the file host', () => {
    assert.deepEqual(otherHostNames('src/core/plugins/pluginManifest.ts', 'export function readHostManifest(text: string) {}'), ['src/core/plugins/pluginManifest.ts: readHostManifest']);
    assert.deepEqual(otherHostNames('src/core/skill/x.ts', 'export interface HostProfile { id: string }'), ['src/core/skill/x.ts: HostProfile']);
    assert.deepEqual(otherHostNames('src/core/paths/walk.ts', "import type { SkillsHost } from '../host/skillsHost';\nexport type WalkHost = Pick<SkillsHost, 'kind'>;"), []);
  });

  it('every exported Host name of src/ and server/ is the file host or one of the named other trades', () => {
    const files = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'server'))];
    const found = files.flatMap((f) => otherHostNames(path.relative(ROOT, f), fs.readFileSync(f, 'utf8')));
    assert.deepEqual(found, []);
    for (const [name] of Object.entries(OTHER_HOSTS)) {
      assert.ok(files.some((f) => new RegExp(`export\\s+function\\s+${name}\\b`).test(fs.readFileSync(f, 'utf8'))), `${name} is still exported (else drop it from OTHER_HOSTS)`);
    }
  });
});
