import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { createScriptRunner, type ScriptRunner } from '../../../src/core/exec';
import { sharedPrefixFraction, type ChatMessage, type ComposeResult } from '../../../src/core/prompt';
import { createSkillsRuntime, type SkillsRuntime, type SkillsRuntimeOptions } from '../../../src/core/runtime';
import { makeTempDir } from '../../support/tempDir';
import { folderSource, writeSkill } from './runtimeSupport';

/** Drives a scripted tool loop the way a chat participant would: compose, "model" calls a tool, append. */
class Loop {
  readonly history: ChatMessage[] = [];
  readonly calls: ComposeResult[] = [];
  private n = 0;
  constructor(
    private readonly rt: SkillsRuntime,
    private readonly sessionId: string,
    private readonly passCallIds = true,
  ) {}
  async user(text: string): Promise<void> {
    await this.rt.beginTurn(this.sessionId, text);
    this.history.push({ role: 'user', content: text });
  }
  async compose(): Promise<ComposeResult> {
    const c = await this.rt.compose(this.sessionId, this.history);
    this.calls.push(c);
    return c;
  }
  async tool(name: string, input: unknown): Promise<unknown> {
    const callId = `call_${++this.n}`;
    this.history.push({ role: 'tool-call', callId, name, input });
    const r = await this.rt.invoke(name, input, { sessionId: this.sessionId, ...(this.passCallIds ? { callId } : {}) });
    this.history.push({ role: 'tool-result', callId, content: JSON.stringify(r.ok ? r.result : r.error), isError: !r.ok });
    return r;
  }
}

describe('runtime prompt composition', function () {
  this.timeout(30000);
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  const runners: ScriptRunner[] = [];
  const make = (o: Partial<SkillsRuntimeOptions> = {}) => {
    const runner = createScriptRunner({ stateDir: path.join(tmp.dir, 'exec'), sandbox: 'off' });
    runners.push(runner);
    return createSkillsRuntime({ source: folderSource(skills), stateDir: path.join(tmp.dir, 'state'), executor: runner, ...o });
  };

  beforeEach(() => {
    tmp = makeTempDir('rt-compose-');
    skills = path.join(tmp.dir, 'skills');
    writeSkill(skills, 'pdf-tools', {
      description: 'Extract text and tables from PDF documents, fill PDF forms.',
      body: '# PDF\n\nBODY-OF-PDF. Read `references/forms.md` for forms.',
      files: { 'references/forms.md': 'FORMS-DOC', 'scripts/count.sh': 'echo 3 pages\n' },
    });
    writeSkill(skills, 'slack-gif', { description: 'Create animated GIFs sized for Slack messages.', body: 'BODY-OF-GIF' });
    writeSkill(skills, 'brand', { description: 'Apply the company brand colors and typography to documents.', body: 'BODY-OF-BRAND' });
  });
  afterEach(async () => {
    // A runner builds its next workspace (read-only folders) in the background: let it finish before removing.
    for (const r of runners.splice(0)) await r.idle();
    tmp.cleanup();
  });

  it('every call has base rules with the loading-required rule, the catalog and the guidance, in that order', async () => {
    const rt = make();
    const c = await rt.compose('s', [{ role: 'user', content: 'hi' }]);
    const i = c.instructions;
    assert.match(i, /Loading is required: .*call load/);
    const order = ['Skill rules:', '<available_skills>\n', '</available_skills>', 'Tooling and workspace guidance:'].map((m) => i.indexOf(m));
    assert.ok(order.every((x, k) => x >= 0 && (k === 0 || x > order[k - 1])), `order ${order}`);
    assert.deepEqual(c.catalog.shown, ['brand', 'pdf-tools', 'slack-gif']);
    assert.doesNotMatch(i, /BODY-OF/);
    const off = await make({ toolingGuidance: '' }).compose('s', []);
    assert.doesNotMatch(off.instructions, /Tooling and workspace guidance/);
    const custom = await make({ toolingGuidance: 'CUSTOM GUIDANCE', toolNames: { load: 'skills_load' } }).compose('s', []);
    assert.match(custom.instructions, /<\/available_skills>\n\nCUSTOM GUIDANCE$/);
    assert.match(custom.instructions, /call skills_load with a skill's name/);
    assert.doesNotMatch(i, /<location>/);
    assert.match((await make({ catalogLocations: true }).compose('s', [])).instructions, /<location>.*pdf-tools\/SKILL\.md<\/location>/);
  });

  it('instructions placement: <active_skills> in load order with docs in seed 002 format', async () => {
    const rt = make();
    const loop = new Loop(rt, 's');
    await loop.user('make a gif from the pdf');
    await loop.tool('load', { names: ['pdf-tools'], docs: ['references/forms.md'] });
    await loop.tool('load', { names: ['slack-gif'], mode: 'add' });
    const c = await loop.compose();
    const i = c.instructions;
    assert.ok(i.indexOf('<skill name="pdf-tools">') < i.indexOf('<skill name="slack-gif">'));
    assert.match(i, /<active_skills>\n.*later one wins/);
    assert.match(i, /--- Content from references\/forms\.md ---\n\nFORMS-DOC\n\n--- End of references\/forms\.md ---/);
    assert.deepEqual(c.messages, loop.history, 'history is untouched');
  });

  for (const passCallIds of [true, false]) {
    it(`tool-results placement keeps the instructions byte-stable through load, read, run (${passCallIds ? 'call ids from the host' : 'matched from history'})`, async () => {
      const rt = make({ placement: 'tool-results' });
      const loop = new Loop(rt, 's', passCallIds);
      await loop.user('count the pages of my pdf');
      await loop.compose();
      await loop.tool('load', { names: ['pdf-tools'] });
      await loop.compose();
      await loop.tool('read', { path: 'references/forms.md' });
      await loop.compose();
      await loop.tool('select_docs', { docs: ['references/forms.md'] });
      await loop.compose();
      await loop.tool('run_script', { script: 'scripts/count.sh' });
      const last = await loop.compose();
      assert.equal(new Set(loop.calls.map((c) => c.instructions)).size, 1, 'instructions identical on every call');
      const loadResult = last.messages.find((m) => m.role === 'tool-result' && m.callId === 'call_1');
      assert.ok(loadResult && loadResult.role === 'tool-result');
      assert.match(loadResult.content, /^\{"loaded":\["pdf-tools"\].*\n\n<skill name="pdf-tools">\n# PDF\n\nBODY-OF-PDF/s);
      const docsResult = last.messages.find((m) => m.role === 'tool-result' && m.callId === 'call_3');
      assert.ok(docsResult && docsResult.role === 'tool-result');
      assert.match(docsResult.content, /Docs of skill "pdf-tools":\n\n--- Content from references\/forms\.md ---/);
      assert.deepEqual(last.materialized.map((m) => `${m.skill}:${m.part}:${m.callId}`), ['pdf-tools:body:call_1', 'pdf-tools:docs:call_3']);
      assert.deepEqual(last.fallback, []);
      assert.ok(sharedPrefixFraction(loop.calls.slice(1)) > 0.95);
      // The stored history is never rewritten: the load result there is still the bare receipt.
      const stored = loop.history.find((m) => m.role === 'tool-result' && m.callId === 'call_1');
      assert.ok(stored && stored.role === 'tool-result' && !stored.content.includes('BODY-OF-PDF'));
    });
  }

  it('tool-results placement falls back to the instructions when the tool result is not in the history', async () => {
    const rt = make({ placement: 'tool-results' });
    const loop = new Loop(rt, 's');
    await loop.user('pdf please');
    await loop.tool('load', { names: ['pdf-tools'] });
    const c = await rt.compose('s', [{ role: 'user', content: 'pdf please' }]);
    assert.deepEqual(c.fallback, ['pdf-tools']);
    assert.match(c.instructions, /<active_skills>[\s\S]*BODY-OF-PDF/);
  });

  it('instructions placement changes the instructions after a load (the contrast the bench measures)', async () => {
    const rt = make();
    const loop = new Loop(rt, 's');
    await loop.user('pdf please');
    await loop.compose();
    await loop.tool('load', { names: ['pdf-tools'] });
    await loop.compose();
    assert.notEqual(loop.calls[0].instructions, loop.calls[1].instructions);
  });

  it('warns when loaded content passes its token budget', async () => {
    writeSkill(skills, 'huge', { description: 'A very long skill.', body: 'word '.repeat(3000) });
    const rt = make({ loadedContentBudget: 1000 });
    await rt.invoke('load', { names: ['huge'] }, { sessionId: 's' });
    const c = await rt.compose('s', []);
    assert.ok(c.tokens.loadedContent > 1000);
    assert.match(c.warnings.join('\n'), /Loaded skill content is \d+ tokens, above the budget of 1000/);
    const under = await make().compose('s', []);
    assert.deepEqual(under.warnings.filter((w) => /Loaded skill content/.test(w)), []);
  });

  it('uses a host token counter when given one', async () => {
    const rt = make({ tokenCounter: { count: (t) => t.length } });
    const c = await rt.compose('s', []);
    assert.equal(c.tokens.instructions, c.instructions.length);
  });

  it('warns when a loaded SKILL.md changed on disk since its load, and uses the new text', async () => {
    const rt = make();
    await rt.invoke('load', { names: ['brand'] }, { sessionId: 's' });
    writeSkill(skills, 'brand', { description: 'Apply the company brand colors.', body: 'NEW-BRAND-BODY' });
    const c = await rt.compose('s', []);
    assert.match(c.instructions, /NEW-BRAND-BODY/);
    assert.match(c.warnings.join('\n'), /changed on disk since it was loaded/);
  });
});
