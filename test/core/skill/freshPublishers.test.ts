import * as assert from 'node:assert/strict';
import { validateSkillDir } from '../../../src/core/skill';
import { commandUses } from '../../../src/core/skill/rules/undeclaredPrograms';
import { fm, lintFixtures } from '../../support/lintFixtures';

// Classes of wrong finding met on publishers no judged set held (scripts/lint-judgments/fresh-publishers.tsv), each
// as a pair of made-up skills: the case the rule must report and the case it must not.

describe('issue 25: false-positive classes from fresh publishers', () => {
  const fx = lintFixtures('fresh-');
  const { skill, lint } = fx;
  const described = (d: string) => {
    const name = `d${fx.next()}`;
    return skill({ 'SKILL.md': `${fm(name, '', JSON.stringify(d))}\nBody.\n` }, name);
  };

  it('description-no-trigger: "auto-activates on keywords", "detects requests for", "use this agent to" say when; a description without one is reported', async () => {
    for (const d of [
      'Knows the queue command-line clients. Auto-activates on keywords qctl, queue cli, list queues.',
      'Detect requests for repeated build-fix loops and start the loop command.',
      "Detects the user's requests to split a large job into parts.",
      'Use this agent to scan Kotlin code for leaked coroutines.',
    ]) assert.deepEqual(await lint(described(d), undefined, 'description-no-trigger'), [], d);
    for (const d of ['Runs on Linux and macOS; formats release notes.', 'Handles HTTP requests for the notes API.', 'Standards for naming queues and topics.']) {
      assert.deepEqual(await lint(described(d), undefined, 'description-no-trigger'), ['description-no-trigger@SKILL.md:3'], d);
    }
  });

  it('description-no-trigger (held-out debatable class): "dispatch for", "before making …", "after … passes" say when; "before" and "after" as plain words do not', async () => {
    for (const d of [
      'Two billing agents for tax rules. Dispatch for tax analysis or report drafts.',
      'Evidence-first gate: runs the checks and reads their output before making any claim of success.',
      'Writes the final release task after the manual test run passes.',
    ]) assert.deepEqual(await lint(described(d), undefined, 'description-no-trigger'), [], d);
    for (const d of ['Formats the notes written before the release and after it.', 'Sorts tasks by what comes before and after each.']) {
      assert.deepEqual(await lint(described(d), undefined, 'description-no-trigger'), ['description-no-trigger@SKILL.md:3'], d);
    }
  });

  it('anchor-missing (held-out debatable class): an anchor with the hyphens of " - " folded is named with the anchor GitHub and VS Code make', async () => {
    const dir = skill({ 'SKILL.md': 'See [api](#core-api-quick-reference) and [gone](#nowhere).\n\n## Core API - Quick Reference\n\nText.\n' });
    const messages = await fx.messages(dir, 'anchor-missing');
    assert.equal(messages.length, 2);
    assert.match(messages[0], /Write `#core-api---quick-reference`/);
    assert.doesNotMatch(messages[1], /Write `#/);
  });

  it('description-person: the requests after "Activates for …" are the user\'s words; "you" before them is reported', async () => {
    const listed = described('Recommends a queue service. Activates for queue choice, which queue should I use, our queue costs.');
    assert.deepEqual(await lint(listed, undefined, 'description-person'), []);
    const keywords = described('Knows queue clients. Auto-activates on keywords my queue, list queues.');
    assert.deepEqual(await lint(keywords, undefined, 'description-person'), []);
    const you = described('Recommends the queue you need. Activates for queue choice.');
    assert.deepEqual(await lint(you, undefined, 'description-person'), ['description-person@SKILL.md:3']);
  });
});

describe('issue 25: command-undeclared, the twelfth missed problem (off by default, turned on here)', () => {
  const fx = lintFixtures('commands-', { 'command-undeclared': { level: 'info' } });
  const { skill, lint } = fx;
  const lintOff = async (dir: string) => (await validateSkillDir(dir, { mode: 'lenient' })).diagnostics.filter((d) => d.rule === 'command-undeclared');
  const runs = (cmd: string) => `## Use\n\n\`\`\`bash\n${cmd} list\n${cmd} show 1 --json | jq .\nexport X=1 && ${cmd} sync\n\`\`\`\n`;

  it('is off by default', async () => {
    const plain = await lintOff(skill({ 'SKILL.md': runs('quillo') }));
    assert.deepEqual(plain, []);
  });

  it('a program run three times that the skill never introduces is reported once, at its first run, naming the fix', async () => {
    const dir = skill({ 'SKILL.md': runs('quillo') });
    assert.deepEqual(await lint(dir, undefined, 'command-undeclared'), ['command-undeclared@SKILL.md:8']);
    const [message] = await fx.messages(dir, 'command-undeclared');
    assert.match(message, /`quillo` \(3 times, first `quillo list`\)/);
    assert.match(message, /compatibility: Requires quillo/);
    // Named after the program it runs: the name is a label, not where the program comes from; that one is the
    // confident part, own-command-undeclared (ownCommand.test.ts), and is not reported twice.
    const named = skill({ 'SKILL.md': `${fm('quillo', '')}${runs('quillo')}` }, 'quillo');
    assert.deepEqual(await lint(named, undefined, 'command-undeclared'), []);
    assert.deepEqual(await lint(named, undefined, 'own-command-undeclared'), ['own-command-undeclared@SKILL.md:8']);
  });

  it('not reported: a common tool, fewer than three runs, a tool shipped, installed (or its package), linked, required, checked for, declared, named in the description, or run less than another program', async () => {
    const quiet: Record<string, Record<string, string>> = {
      known: { 'SKILL.md': runs('kubectl') },
      twice: { 'SKILL.md': '```bash\nquillo list\nquillo sync\n```\n' },
      shipped: { 'SKILL.md': runs('quillo'), 'bin/quillo': '#!/bin/sh\necho hi\n' },
      installedElsewhere: { 'SKILL.md': `${runs('quillo')}\nSee [setup](references/setup.md).\n`, 'references/setup.md': '```bash\nnpm install -g quillo-cli\n```\n' },
      linked: { 'SKILL.md': `Get it from https://example.com/tools/quillo/releases.\n\n${runs('quillo')}` },
      required: { 'SKILL.md': `Requires the quillo binary on the PATH.\n\n${runs('quillo')}` },
      compatibility: { 'SKILL.md': `${fm('declared', 'compatibility: Needs quillo 2.x\n')}${runs('quillo')}` },
      metadata: { 'SKILL.md': `${fm('meta', 'metadata:\n  requires:\n    bins: [quillo]\n')}${runs('quillo')}` },
      described: { 'SKILL.md': `${fm('described', '', 'Syncs notes with `quillo`. Use when the user asks to sync notes.')}${runs('quillo')}` },
      stemInstalled: { 'SKILL.md': `Install with \`brew install quillo\`.\n\n${runs('quillo-cli')}` },
      checked: { 'SKILL.md': `\`\`\`bash\nif ! command -v quillo >/dev/null; then echo "install quillo first"; fi\n\`\`\`\n\n${runs('quillo')}` },
      pathNamed: { 'SKILL.md': `The tool is \`\${PLUGIN_ROOT}/tools/quillo\`.\n\n${runs('quillo')}` },
      productNamed: { 'SKILL.md': `${fm('product', '', 'Runs quillorepo builds. Use when the user asks to build with quillorepo.')}${runs('quillo')}` },
      secondary: { 'SKILL.md': `${runs('quillo')}\n\`\`\`bash\nmvn test\nmvn verify\nmvn package\nmvn install\n\`\`\`\n` },
      packageHeading: { 'SKILL.md': `## @acme/quill commands\n\n| cmd | what |\n| --- | --- |\n\n${runs('quillo').replace('## Use\n\n', '')}` },
    };
    for (const [name, files] of Object.entries(quiet)) {
      const dir = skill(files, files['SKILL.md'].startsWith('---') ? /^---\nname: (\S+)/.exec(files['SKILL.md'])![1] : name.toLowerCase());
      assert.deepEqual(await lint(dir, undefined, 'command-undeclared'), [], name);
    }
  });

  it('not programs: comments, heredoc bodies, continuation lines, functions the block defines, code of other languages, script files, arithmetic, placeholder names, untagged blocks', async () => {
    const body = [
      '```bash',
      '# quillo list',
      'cat <<EOF',
      'quillo a',
      'quillo b',
      'quillo c',
      'EOF',
      'echo one \\',
      '  quillo x',
      'quillo() { echo; }',
      'quillo 1; quillo 2; quillo 3',
      'await page.goto(1)',
      'await page.goto(2)',
      'await page.goto(3)',
      'report.sh a; report.sh b; report.sh c',
      'n=$((n + 1)); n=$((n + 1)); n=$((n + 1))',
      'process "$1"; process "$2"; process "$3"',
      'my-tool a; my-tool b; my-tool c',
      '```',
      '',
      '```',
      'quillo a',
      'quillo b',
      'quillo c',
      '```',
    ].join('\n');
    assert.deepEqual(await lint(skill({ 'SKILL.md': body }), undefined, 'command-undeclared'), []);
  });
});

describe('issue 25: the command scanner is bounded', () => {
  it('a line of 20,000 pipes and a block of 100,000 lines are read in one pass, the lines past the limit left unread', () => {
    const pipes = `\`\`\`bash\n${'quillo a | '.repeat(20_000)}quillo z\n\`\`\`\n`;
    assert.equal(commandUses(pipes, [[0, pipes.length]]).get('quillo')?.runs, 20_001);
    const many = `\`\`\`bash\n${'quillo a\n'.repeat(100_000)}\`\`\`\n`;
    const runs = commandUses(many, [[0, many.length]]).get('quillo')?.runs ?? 0;
    assert.ok(runs > 0 && runs < 100_000, `runs ${runs}`);
  });
});

describe('issue 25: dynamic-context from fresh publishers', () => {
  const fx = lintFixtures('bang-');
  it('a code span ending in ! (`try!`) is reported with the fix for text, a real !`command` with the fix for a command', async () => {
    const dir = fx.skill({ 'SKILL.md': 'Avoid `try!` on `load()` calls.\n\nToday: !`date +%F`\n' });
    const messages = await fx.messages(dir, 'dynamic-context');
    assert.equal(messages.length, 2);
    assert.match(messages[0], /Put a space before the closing backtick/);
    assert.match(messages[1], /Check that the command is harmless/);
  });
});

describe('issue 25: code-fence-unclosed, the held-out debatable class', () => {
  const fx = lintFixtures('fence-');
  it('a ```markdown block that shows a fence of its own length is named as the cause, with the longer fence to use; a plain unclosed block keeps its advice', async () => {
    const nested = fx.skill({ 'SKILL.md': 'Output looks like:\n\n```markdown\n## Result\n\n```python\nprint(1)\n```\n\nDone.\n```\n\n## Next\n' });
    const [m] = await fx.messages(nested, 'code-fence-unclosed');
    assert.match(m, /Fence the outer block with more backticks \(````\)/);
    const plain = fx.skill({ 'SKILL.md': 'Shown:\n\n```markdown\n## Result\n```\n\nRun:\n\n```bash\nmake\n' });
    const [p] = await fx.messages(plain, 'code-fence-unclosed');
    assert.match(p, /Add a closing ``` line/);
  });
});
