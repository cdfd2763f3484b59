import * as assert from 'node:assert/strict';
import { validateSkillDir } from '../../../src/core/skill';
import { namedLikeSkill } from '../../../src/core/skill/rules/undeclaredPrograms';
import { fm, lintFixtures } from '../../support/lintFixtures';

// Issue 25, the twelfth missed problem: the confident part of command-undeclared. A program the skill is named for
// is its own subject (not a tool of a trade the reader already has): never introduced, it is reported by default
// as own-command-undeclared (info); every other program stays with command-undeclared, off. Made-up skills only.

describe('issue 25: own-command-undeclared, a program named like the skill that the skill never introduces (on by default)', () => {
  const fx = lintFixtures('own-cmd-');
  const { skill } = fx;
  const runs = (cmd: string) => `## Use\n\n\`\`\`bash\n${cmd} list\n${cmd} show 1 --json | jq .\nexport X=1 && ${cmd} sync\n\`\`\`\n`;
  /** Every finding of either part, with the default configuration (nothing turned on). */
  const found = async (dir: string) => (await validateSkillDir(dir, { mode: 'lenient' })).diagnostics
    .filter((d) => /command-undeclared$/.test(d.rule)).map((d) => `${d.rule}:${d.severity}@${d.range.start.line + 1}`);
  const named = (folder: string, files: Record<string, string>, description?: string) => {
    const body = files['SKILL.md'];
    return skill({ ...files, 'SKILL.md': `${fm(folder, '', description)}${body}` }, folder);
  };

  it('named for the program (the whole name, one of its words, or a distinctive word shared): reported by default at info, naming the fix', async () => {
    for (const folder of ['quillo', 'quillo-notes', 'sync-with-quillo']) {
      assert.deepEqual(await found(named(folder, { 'SKILL.md': runs('quillo') })), ['own-command-undeclared:info@8'], folder);
    }
    assert.deepEqual(await found(named('notes-sync-pro', { 'SKILL.md': runs('notes-sync') })), ['own-command-undeclared:info@8'], 'shared word');
    const [d] = (await validateSkillDir(named('quillo-kit', { 'SKILL.md': runs('quillo') }), { mode: 'lenient' })).diagnostics.filter((x) => x.rule === 'own-command-undeclared');
    assert.match(d.message, /`quillo` \(3 times, first `quillo list`\), the program this skill is named for,/);
    assert.match(d.message, /compatibility: Requires quillo/);
  });

  it('a program not named like the skill, or sharing only a kind word (`cli`, `tool`, `agent`), is not its own: off by default, command-undeclared when turned on', async () => {
    for (const [folder, cmd] of [['release-notes', 'quillo'], ['notes-cli', 'quillo-cli'], ['agent-helper', 'agent-quill'], ['quill', 'quillomatic']]) {
      const dir = named(folder, { 'SKILL.md': runs(cmd) });
      assert.deepEqual(await found(dir), [], `${folder} ${cmd}`);
      const on = await validateSkillDir(dir, { mode: 'lenient', config: { rules: { 'command-undeclared': { level: 'info' } } } });
      assert.deepEqual(on.diagnostics.filter((x) => /command-undeclared$/.test(x.rule)).map((x) => x.rule), ['command-undeclared'], `${folder} ${cmd} on`);
    }
  });

  it('named for it but introduced (installed, linked, required, declared, shipped, checked for, named in the description) or a common tool: not reported', async () => {
    const quiet: Record<string, [Record<string, string>, string?]> = {
      installed: [{ 'SKILL.md': `Install with \`npm install -g quillo\`.\n\n${runs('quillo')}` }],
      linked: [{ 'SKILL.md': `Get it from https://example.com/quillo/releases.\n\n${runs('quillo')}` }],
      required: [{ 'SKILL.md': `Requires the quillo binary on the PATH.\n\n${runs('quillo')}` }],
      shipped: [{ 'SKILL.md': runs('quillo'), 'bin/quillo': '#!/bin/sh\necho hi\n' }],
      checked: [{ 'SKILL.md': `\`\`\`bash\ncommand -v quillo || echo "install quillo first"\n\`\`\`\n\n${runs('quillo')}` }],
      described: [{ 'SKILL.md': runs('quillo') }, 'Syncs notes with quillo. Use when the user asks to sync notes.'],
      installedInReference: [{ 'SKILL.md': `${runs('quillo')}\nSee [setup](references/setup.md).\n`, 'references/setup.md': '```bash\nbrew install quillo\n```\n' }],
    };
    for (const [why, [files, description]] of Object.entries(quiet)) assert.deepEqual(await found(named(`quillo-${why.toLowerCase()}`, files, description)), [], why);
    assert.deepEqual(await found(named('kubectl-pods', { 'SKILL.md': runs('kubectl') })), [], 'a common tool');
  });

  it('a program of the framework or product the description names (its name, then `-`, `_` or `.` and the program\'s part) is its subject, in both parts', async () => {
    const on = { rules: { 'command-undeclared': { level: 'info' as const } } };
    const rules = async (dir: string) => (await validateSkillDir(dir, { mode: 'lenient', config: on })).diagnostics.filter((x) => /command-undeclared$/.test(x.rule)).map((x) => x.rule);
    const about = 'Signs build steps with quill-chain. Use when securing a release pipeline with quill-chain.';
    assert.deepEqual(await rules(named('signing-with-quill-chain', { 'SKILL.md': runs('quill-chain-run') }, about)), [], 'framework program, named like the skill');
    assert.deepEqual(await rules(named('release-signing', { 'SKILL.md': runs('quill-chain-keygen') }, about)), [], 'framework program');
    assert.deepEqual(await rules(named('trace-with-quilltrace', { 'SKILL.md': runs('quilltrace.exe') }, 'Reads browser history with Quilltrace. Use when analysing a browser profile.')), [], 'product.exe');
    // A short name of a standard or platform (MCP, SQL) is not a product whose programs these are.
    assert.deepEqual(await rules(named('qcp-cli', { 'SKILL.md': runs('qcp-cli') }, 'Talks to QCP servers from the command line. Use when calling QCP tools.')), ['own-command-undeclared'], 'acronym of a standard');
    // The stem must be the whole description word: `quill` in the description does not make `quillchain-run` its program.
    assert.deepEqual(await rules(named('release-quillchain', { 'SKILL.md': runs('quillchain-run') }, 'Signs builds with quill. Use when signing.')), ['own-command-undeclared'], 'not a stem of a described word');
  });

  it('namedLikeSkill: whole name, name word, shared distinctive word; kind words and substrings do not count', () => {
    assert.equal(namedLikeSkill('acme-cli', ['acme-cli']), true);
    assert.equal(namedLikeSkill('acme', ['acme-notes']), true);
    assert.equal(namedLikeSkill('notes-sync', ['notes-sync-free']), true);
    assert.equal(namedLikeSkill('acme.exe', ['reading-acme']), true);
    assert.equal(namedLikeSkill('acme-cli', ['other-cli']), false);
    assert.equal(namedLikeSkill('acm', ['acme-notes']), false);
    assert.equal(namedLikeSkill('pdftool', ['pdf']), false);
  });
});
