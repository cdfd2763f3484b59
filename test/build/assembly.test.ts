// One assembly of the core per window (the extension) and per process (each CLI command, the MCP server), issue 23:
// a scan of src/ and server/ counts the calls of createAgentSkills per front end, and checks that no front end builds
// the core's parts itself (registry, runner, runtime, catalog) instead of asking the factory.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO, sourceFiles } from '../support/sourceFiles';

/** Calls of `pattern` per file (relative path → count), comments left out. */
function calls(pattern: RegExp, dirs: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of dirs.flatMap((d) => sourceFiles(d))) {
    const code = fs
      .readFileSync(f, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const n = [...code.matchAll(new RegExp(pattern.source, 'g'))].length;
    if (n) out.set(path.relative(REPO, f), n);
  }
  return out;
}

const FACTORY = /\bcreateAgentSkills\(/;

describe('one assembly of the core per window and per process', () => {
  it('the extension calls createAgentSkills once (the window core), the MCP server once, each CLI command at most once, the language server never', () => {
    const found = calls(FACTORY, ['src/extension', 'src/cli', 'server']);
    const inExtension = [...found].filter(([f]) => f.startsWith(path.join('src', 'extension')));
    assert.deepEqual(inExtension, [[path.join('src', 'extension', 'service', 'windowCore.ts'), 1]]);
    const inMcp = [...found].filter(([f]) => f.startsWith(path.join('src', 'cli', 'mcp')));
    assert.deepEqual(inMcp, [[path.join('src', 'cli', 'mcp', 'mcpBackend.ts'), 1]]);
    for (const [f, n] of found) assert.ok(n === 1, `${f} assembles the core ${n} times: one process runs one command, which asks the factory once`);
    assert.ok(![...found.keys()].some((f) => f.startsWith('server')), 'the language server does not assemble the runtime');
  });

  it('no front end builds the parts itself: only the factory creates the registry, runner, runtime and catalog', () => {
    const parts = /\b(?:createSkillRegistry|createScriptRunner|createSkillsRuntime)\(|\bSkillCatalog\.open\(/;
    assert.deepEqual([...calls(parts, ['src/extension', 'src/cli', 'server']).keys()], []);
  });

  it('would see a second assembly (the scan is not vacuous)', () => {
    const text = 'const a = createAgentSkills({});\n// createAgentSkills( in a comment\nconst b = createAgentSkills({});';
    assert.equal([...text.replace(/^\s*\/\/.*$/gm, '').matchAll(new RegExp(FACTORY.source, 'g'))].length, 2);
  });
});
