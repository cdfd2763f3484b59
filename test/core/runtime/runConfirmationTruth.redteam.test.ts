// Red team (issue 22, sixth pass): does VS Code's run confirmation tell the truth about the sandbox? For a runner
// with `auto` where bubblewrap is missing, where it is installed but refuses its trial run, and where it works, the
// confirmation the window shows (src/extension/tools/runConfirmation.ts, imports no VS Code) is compared with what
// the run then does: whether its result says sandboxed, and whether the script can read a canary file the user
// owns outside the run. "NOT sandboxed ... it can read your files" must come with a run that can; "sandboxed ... not
// your home folder, other projects, /tmp" with a run that cannot.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createAgentSkills, type AgentSkills } from '../../../src/core/agentSkills';
import { runConfirmation } from '../../../src/extension/tools/runConfirmation';
import { makeTempDir } from '../../support/tempDir';
import { writeSkill } from './runtimeSupport';
import { pluginSkillRoots, PLUGIN_SCHEMA_1_0, readPlugins } from '../../../src/core/plugins';
import { consentQuestion } from '../../../src/cli/mcp/scriptConsent';

const CANARY = 'CANARY-22d-confirmation';

describe('VS Code run confirmation against what the sandbox does (red team)', function () {
  this.timeout(120_000);
  let tmp: ReturnType<typeof makeTempDir>;
  const cores: AgentSkills[] = [];
  before(() => {
    tmp = makeTempDir('run-truth-');
    fs.writeFileSync(path.join(tmp.dir, 'canary.txt'), `${CANARY}\n`);
    // The script reads the canary with sh builtins only, so it runs with no other program on the search path.
    writeSkill(path.join(tmp.dir, 'skills'), 'peek', { files: { 'scripts/peek.sh': `#!/bin/sh\nif read -r l < "$1"; then echo "read:$l"; else echo "unreadable"; fi\n` } });
  });
  after(async () => {
    for (const c of cores.splice(0)) await c.dispose();
    tmp.cleanup();
  });

  /**
   * A search path of its own: `sh` and `bwrap` as given first, then (with a bwrap) the system folders, where a root
   * runner finds the `setpriv` it drops to another account with (it must be in a system folder).
   */
  const searchPath = (name: string, bwrap?: string) => {
    const bin = path.join(tmp.dir, `bin-${name}`);
    fs.mkdirSync(bin, { recursive: true });
    fs.symlinkSync('/bin/sh', path.join(bin, 'sh'));
    if (!bwrap) return bin;
    fs.symlinkSync(bwrap, path.join(bin, 'bwrap'));
    return [bin, '/usr/bin', '/bin'].join(path.delimiter);
  };
  const confirmAndRun = async (name: string, bin: string) => {
    const core = createAgentSkills({ stateDir: path.join(tmp.dir, `state-${name}`), roots: [{ path: path.join(tmp.dir, 'skills'), scope: 'workspace' }], runner: { sandbox: 'auto', searchPath: bin } });
    cores.push(core);
    await core.refresh();
    const rt = core.tools();
    await rt.openSession('s');
    assert.ok((await rt.invoke('load', { names: ['peek'] }, { sessionId: 's' })).ok);
    const input = { skill: 'peek', script: 'scripts/peek.sh', args: [path.join(tmp.dir, 'canary.txt')] };
    const asked = await runConfirmation(input, { targetSkill: () => 'peek', sandboxStatus: () => core.sandboxStatus(), checkRun: (i) => rt.checkRun(i, { sessionId: 's' }) });
    assert.ok(asked.confirmation, asked.invocationMessage);
    const r = await rt.invoke('run_script', input, { sessionId: 's' });
    assert.ok(r.ok, JSON.stringify(r));
    const result = r.result as { stdout: string; sandboxed?: boolean };
    return { title: asked.confirmation.title, text: asked.confirmation.lines.join('\n'), stdout: result.stdout, sandboxed: result.sandboxed };
  };
  const unsandboxedTruth = (c: Awaited<ReturnType<typeof confirmAndRun>>, why: RegExp) => {
    assert.match(c.title, /\(NOT sandboxed\)\?$/, c.title);
    assert.match(c.text, why, c.text);
    assert.match(c.text, /runs with your user's rights: it can read your files and use the network/, c.text);
    assert.equal(c.sandboxed, false, 'the run says it was not sandboxed');
    assert.match(c.stdout, new RegExp(`read:${CANARY}`), `the confirmation said it can read your files; the run could not: ${c.stdout}`);
  };

  it('bubblewrap missing: the question says NOT sandboxed and why, and the run can indeed read your files', async () => {
    unsandboxedTruth(await confirmAndRun('missing', searchPath('missing')), /bubblewrap \(bwrap\) is not installed/);
  });

  it('bubblewrap installed but refusing its trial run: NOT sandboxed with its reason, and the run can read your files', async () => {
    const fake = path.join(tmp.dir, 'fake-bwrap');
    fs.writeFileSync(fake, '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n', { mode: 0o755 });
    unsandboxedTruth(await confirmAndRun('refusing', searchPath('refusing', fake)), /failed a trial run \(exit 1: bwrap: setting up uid map: Permission denied\)/);
  });

  it('bubblewrap working: the question says sandboxed, and the run cannot read a file of yours under /tmp', async function () {
    const real = ['/usr/bin/bwrap', '/bin/bwrap'].find((p) => fs.existsSync(p));
    if (!real) {
      console.log('      skipped: bubblewrap is not installed on this machine, so no sandboxed run to compare with its confirmation');
      return this.skip();
    }
    const c = await confirmAndRun('working', ['/usr/bin', '/bin'].join(path.delimiter));
    if (c.sandboxed === false) {
      // Installed but not usable here (user namespaces off): then the question must have said so.
      console.log(`      bubblewrap does not work here; checked the unsandboxed wording instead: ${c.title}`);
      return unsandboxedTruth(c, /failed a trial run|not installed|bubblewrap/);
    }
    assert.match(c.title, /\(sandboxed(, with a protection missing)?\)\?$/, c.title);
    assert.match(c.text, /Sandboxed with bubblewrap .*not your home folder, other projects, \/tmp or \/run/, c.text);
    assert.equal(c.sandboxed, true);
    assert.doesNotMatch(c.stdout, new RegExp(CANARY), `the confirmation said the sandbox does not show /tmp; the run read it: ${c.stdout}`);
    assert.match(c.stdout, /unreadable/, c.stdout);
  });

  // Sixth pass: a plugin skill's sandboxed run also reads its plugin's folder and writes the plugin's data folder,
  // which outlives the run and is the HOME of the plugin's MCP servers (unsandboxed). The question said only "its
  // own run folder and HOME" (MCP: "Can write: only its own run folder ... and the skill's own HOME").
  it("a plugin skill's run: both questions name the plugin's data folder, which the sandboxed run does write", async function () {
    const plugin = path.join(tmp.dir, 'kit');
    fs.mkdirSync(path.join(plugin, 'skills', 'keep', 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(plugin, 'plugin.json'), JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'kit', version: '1.0.0' }));
    fs.writeFileSync(path.join(plugin, 'skills', 'keep', 'SKILL.md'), '---\nname: keep\ndescription: Use keep to keep a note.\n---\nRun scripts/keep.sh.\n');
    fs.writeFileSync(path.join(plugin, 'skills', 'keep', 'scripts', 'keep.sh'), '#!/bin/sh\necho kept > "$PLUGIN_DATA/note"\necho wrote\n', { mode: 0o755 });
    const core = createAgentSkills({ stateDir: path.join(tmp.dir, 'state-plugin'), roots: pluginSkillRoots(readPlugins([plugin])), runner: { sandbox: 'auto', searchPath: ['/usr/bin', '/bin'].join(path.delimiter) } });
    cores.push(core);
    await core.refresh();
    const rt = core.tools();
    await rt.openSession('s');
    assert.ok((await rt.invoke('load', { names: ['keep'] }, { sessionId: 's' })).ok);
    const input = { skill: 'keep', script: 'scripts/keep.sh' };
    const checked = await rt.checkRun(input, { sessionId: 's' });
    assert.ok(checked.ok, JSON.stringify(checked));
    const dataDir = checked.result.plugin?.dataDir;
    assert.ok(dataDir, `the check does not say which plugin folders the run reaches: ${JSON.stringify(checked.result)}`);
    const asked = await runConfirmation(input, { targetSkill: () => 'keep', sandboxStatus: () => core.sandboxStatus(), checkRun: () => Promise.resolve(checked) });
    const text = asked.confirmation?.lines.join('\n') ?? '';
    assert.ok(text.includes(`can write the plugin's data folder ${dataDir}, which is kept between runs and is the HOME of the plugin's MCP servers (they run outside the sandbox)`), text);
    const mcp = consentQuestion(input, 'keep', await core.sandboxStatus(), checked.result.plugin).message;
    assert.ok(mcp.includes(`data folder ${dataDir}`), mcp);
    const r = await rt.invoke('run_script', input, { sessionId: 's' });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(fs.readFileSync(path.join(dataDir, 'note'), 'utf8'), 'kept\n', 'the run wrote the data folder the question named');
    if ((r.result as { sandboxed?: boolean }).sandboxed) assert.match(mcp, /Can write: only its own run folder .* and its plugin's data folder \(below\)/, mcp);
    else console.log('      bubblewrap does not work here: the run was not sandboxed; the data folder line was checked');
  });
});
