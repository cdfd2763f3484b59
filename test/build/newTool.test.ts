// Adding a tool (issue 23): one descriptor file plus one line in the tool table. In a temporary copy of src/, a new
// tool's descriptor without its name, manifest UI and wording must fail the type check naming each; once the
// descriptor has them the copy compiles, the generated manifest (what sync-manifest writes into package.json) lists
// it, and the files touched are counted, so the count the README states is held here.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyProject, edit, ROOT } from './projectCopy';


const TSC_DEADLINE_MS = 600_000;

function typecheck(dir: string): string {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  // A deadline for a hang: at load 30 on 2 cores one run took over 300 s, was killed, and its empty output failed an
  // assertion that named nothing. A kill now says so.
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', dir], { encoding: 'utf8', timeout: TSC_DEADLINE_MS });
  if (r.error) throw new Error(`tsc --noEmit -p ${dir}: ${(r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? `still running at its ${TSC_DEADLINE_MS / 1000} s deadline, killed` : r.error.message}`);
  return `${r.stdout}${r.stderr}`;
}

/** A descriptor of `ping_skills`, with `parts` spliced in (its names, manifest UI and wording, or none of them). */
function pingDescriptor(parts: string): string {
  return (
    "import { z } from 'zod';\nimport type { ToolDescriptor } from '../toolDescriptor';\n" +
    `export const pingDescriptor: ToolDescriptor<string> = { ${parts} id: 'ping_skills', family: 'standard', input: z.strictObject({}), description: 'Answers pong.', sideEffects: false, usesSession: false, invoke: async () => ({ ok: true, tool: 'ping_skills', result: 'pong' }) };\n`
  );
}

const PARTS =
  "name: 'ping_skills', referenceName: 'skillsPing', title: 'Ping', manifest: { icon: '$(pulse)', userDescription: 'Ping.' }, wording: { invocation: () => 'Pinging…' },";

describe('adding a tool: one descriptor file plus one line in the table', function () {
  // Two type checks and one tsx run, each with its deadline.
  this.timeout(3 * TSC_DEADLINE_MS);

  it('does not compile without its name, manifest UI and wording, compiles with them, and is in the generated manifest (2 files)', () => {
    const dir = copyProject('new-tool-', ['src', 'server']);
    try {
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ extends: path.join(ROOT, 'tsconfig.json'), include: ['src/**/*.ts', 'server/**/*.ts'] }));
      const touched = new Set<string>();
      const table = path.join(dir, 'src', 'core', 'toolTable');
      // 1. Its descriptor, first without names, manifest UI or wording.
      const descriptor = path.join(table, 'descriptors', 'pingTool.ts');
      fs.writeFileSync(descriptor, pingDescriptor(''));
      touched.add(descriptor);
      // 2. Its line in the table.
      edit(path.join(table, 'toolTable.ts'), 'export const TOOLS: readonly ToolDescriptor[] = [', "import { pingDescriptor } from './descriptors/pingTool';\nexport const TOOLS: readonly ToolDescriptor[] = [pingDescriptor as ToolDescriptor, ", touched);
      const missing = typecheck(dir);
      assert.match(missing, /pingTool\.ts/, missing);
      for (const part of ['name', 'referenceName', 'title', 'manifest', 'wording']) assert.match(missing, new RegExp(`\\b${part}\\b`), `the compiler names the missing ${part}:\n${missing}`);
      fs.writeFileSync(descriptor, pingDescriptor(PARTS));
      assert.equal(typecheck(dir).trim(), '', 'the copy compiles once the descriptor has every part');
      // The manifest sync-manifest writes into package.json is generated from the table: the new tool is in it.
      const listed = spawnSync(process.execPath, ['--import', 'tsx', '-e', "import('./src/extension/tools/toolManifest.ts').then((m) => console.log(JSON.stringify((m.toolContributions ?? m.default.toolContributions)().find((t) => t.name === 'ping_skills'))))"], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
      });
      const entry = JSON.parse(listed.stdout.trim() || 'null') as { icon: string; toolReferenceName: string } | null;
      assert.deepEqual(entry && { icon: entry.icon, toolReferenceName: entry.toolReferenceName }, { icon: '$(pulse)', toolReferenceName: 'skillsPing' }, listed.stderr);
      assert.equal(touched.size, 2, [...touched].join('\n'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
