// Adding a tool (issue 23): the compiler asks for every part. In a temporary copy of src/, a new tool is named in the
// table of names and given a descriptor and its line in the tool table; the type check must then fail naming the
// per-tool tables of the VS Code surface that lack it (presentation and manifest UI), and pass once they have it.
// The files touched are counted, so the count the README states is held here.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function edit(file: string, from: string, to: string, touched: Set<string>): void {
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${path.basename(file)} still holds ${JSON.stringify(from.slice(0, 60))}`);
  fs.writeFileSync(file, text.replace(from, to));
  touched.add(file);
}

function typecheck(dir: string): string {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', dir], { encoding: 'utf8', timeout: 300_000 });
  return `${r.stdout}${r.stderr}`;
}

describe('adding a tool: the compiler asks for every part', function () {
  this.timeout(600_000);

  it('a named tool with a descriptor and a table line does not compile until the surface tables have it (5 files in all)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'new-tool-'));
    try {
      for (const part of ['src', 'server']) fs.cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
      fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ extends: path.join(ROOT, 'tsconfig.json'), include: ['src/**/*.ts', 'server/**/*.ts'] }));
      const touched = new Set<string>();
      const core = path.join(dir, 'src', 'core');
      // 1. Its name.
      edit(path.join(core, 'tools', 'toolNames.ts'), 'export type ToolId = ', "export const PING_TOOL = { name: 'ping_skills', referenceName: 'skillsPing', title: 'Ping' } as const satisfies ToolNaming;\nexport type ToolId = typeof PING_TOOL.name | ", touched);
      // 2. Its descriptor.
      const descriptor = path.join(core, 'toolTable', 'descriptors', 'pingTool.ts');
      fs.writeFileSync(
        descriptor,
        "import { z } from 'zod';\nimport { PING_TOOL } from '../../tools/toolNames';\nimport type { ToolDescriptor } from '../toolDescriptor';\n" +
          "export const pingDescriptor: ToolDescriptor<string> = { ...PING_TOOL, id: PING_TOOL.name, family: 'standard', input: z.strictObject({}), description: 'Answers pong.', sideEffects: false, invoke: async () => ({ ok: true, tool: PING_TOOL.name, result: 'pong' }) };\n",
      );
      touched.add(descriptor);
      // 3. Its line in the table.
      edit(path.join(core, 'toolTable', 'toolTable.ts'), 'export const TOOLS: readonly ToolDescriptor[] = [', "import { pingDescriptor } from './descriptors/pingTool';\nexport const TOOLS: readonly ToolDescriptor[] = [pingDescriptor as ToolDescriptor, ", touched);
      const missing = typecheck(dir);
      assert.match(missing, /toolPresentation\.ts.*ping_skills|ping_skills[\s\S]*toolPresentation\.ts|toolPresentation\.ts[\s\S]*ping_skills/, missing);
      assert.match(missing, /toolManifest\.ts/, missing);
      // 4, 5. The VS Code surface's presentation and manifest UI.
      const ext = path.join(dir, 'src', 'extension', 'tools');
      edit(path.join(ext, 'toolPresentation.ts'), 'export const PRESENTATIONS: Record<ToolId, ToolPresentation> = {', "export const PRESENTATIONS: Record<ToolId, ToolPresentation> = {\n  ping_skills: { prepare: () => ({ invocationMessage: 'Pinging…' }) },", touched);
      edit(path.join(ext, 'toolManifest.ts'), 'const UI: Record<ToolId, ManifestUi> = {', "const UI: Record<ToolId, ManifestUi> = {\n  ping_skills: { icon: '$(pulse)', userDescription: 'Ping.' },", touched);
      assert.equal(typecheck(dir).trim(), '', 'the copy compiles once every part is there');
      assert.equal(touched.size, 5, [...touched].join('\n'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
