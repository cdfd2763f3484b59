// The model judge's core: what an attempt's tool calls mean, when an attempt ends, how drafted requests and a proposed
// description are read from a model's answer (strictly, bounded), and the last report kept per file and judge.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  assignSplits,
  checkTriggerQueries,
  draftPrompt,
  MAX_MODEL_ANSWER_CHARS,
  MAX_TRIAL_ROUNDS,
  ModelAnswerError,
  newQueries,
  parseDraftedQueries,
  parseSuggestedDescription,
  readLastReport,
  reportPath,
  requestResult,
  runModelTrial,
  splitScores,
  suggestPrompt,
  triggerFileText,
  writeLastReport,
  type TrialConversation,
  type TrialToolCall,
  type TriggerReport,
} from '../../../src/core/evals';
import { localDisk } from '../../../src/core/host/localDisk';

const NAMES = { load: 'load_skills', runSkill: 'runSkill', find: 'find_skills' };

/** A conversation whose model answers the given call lists in turn (an Error is thrown as a model error). */
function scripted(answers: (TrialToolCall[] | Error)[]): TrialConversation & { sent: number; found: unknown[] } {
  const c = {
    sent: 0,
    found: [] as unknown[],
    async send() {
      const a = answers[c.sent++];
      if (a instanceof Error) throw a;
      return a ?? [];
    },
    async answerFind(call: TrialToolCall) {
      c.found.push(call.input);
    },
    describeError: (e: unknown) => `model error: ${(e as Error).message}`,
  };
  return c;
}

const call = (name: string, input: unknown): TrialToolCall => ({ callId: `c-${name}`, name, input });

describe('model judge (core): one attempt', () => {
  it('load_skills of the skill triggers; of another skill records it as chosen; text alone does not trigger', async () => {
    assert.deepEqual(await runModelTrial('pdf', scripted([[call('load_skills', { names: ['pdf'] })]]), NAMES), { triggered: true });
    assert.deepEqual(await runModelTrial('pdf', scripted([[call('load_skills', { names: ['docx'] })]]), NAMES), { triggered: false, chosen: 'docx' });
    assert.deepEqual(await runModelTrial('pdf', scripted([[]]), NAMES), { triggered: false });
    assert.deepEqual(await runModelTrial('pdf', scripted([[call('runSkill', { action: 'run', skill: 'workspace:pdf' })]]), NAMES), { triggered: true });
    assert.deepEqual(await runModelTrial('pdf', scripted([[call('runSkill', { action: 'inspect', skill: 'pdf' })]]), NAMES), { triggered: false });
  });

  it('find_skills is answered and the turn goes on, at most MAX_TRIAL_ROUNDS calls', async () => {
    const c = scripted([[call('find_skills', { query: 'pdf form' })], [call('load_skills', { names: ['pdf'] })]]);
    assert.deepEqual(await runModelTrial('pdf', c, NAMES), { triggered: true });
    assert.deepEqual(c.found, [{ query: 'pdf form' }]);
    const searching = scripted(Array.from({ length: 10 }, () => [call('find_skills', { query: 'x' })]));
    assert.deepEqual(await runModelTrial('pdf', searching, NAMES), { triggered: false });
    assert.equal(searching.sent, MAX_TRIAL_ROUNDS, 'a model that only searches is asked without bound');
  });

  it('a model error is recorded on the attempt, never thrown; a request whose every attempt failed does not pass', async () => {
    const t = await runModelTrial('pdf', scripted([new Error('quota')]), NAMES);
    assert.deepEqual(t, { triggered: false, error: 'model error: quota' });
    const q = { query: 'chat about cats', should_trigger: false };
    assert.equal(requestResult(q, [t, t]).passed, false, 'errors alone made a should-not request pass');
    assert.equal(requestResult(q, [t, { triggered: false }]).passed, true);
    assert.equal(requestResult({ query: 'fill the form', should_trigger: true, split: 'validation' }, [{ triggered: true }, { triggered: false }]).split, 'validation');
  });
});

describe('model judge (core): drafted requests and suggested descriptions', () => {
  const drafted = [
    { query: 'fill in this tax form pdf', should_trigger: true },
    { query: 'extract the fields of a pdf form', should_trigger: true },
    { query: 'Fill in this tax form PDF.', should_trigger: true },
    { query: 'use the pdf-forms skill', should_trigger: true },
    { query: 'convert a docx to markdown', should_trigger: false },
  ];

  it('reads the one JSON array (fenced or bare), drops repeats and requests naming the skill, and says what was wrong otherwise', () => {
    const kept = parseDraftedQueries(`Sure!\n\`\`\`json\n${JSON.stringify(drafted)}\n\`\`\`\nEnjoy.`, 'pdf-forms');
    assert.deepEqual(kept.map((q) => q.query), ['fill in this tax form pdf', 'extract the fields of a pdf form', 'convert a docx to markdown']);
    assert.deepEqual(parseDraftedQueries(JSON.stringify(drafted.slice(0, 2)), 'pdf-forms').length, 2);
    assert.throws(() => parseDraftedQueries('I cannot help with that.', 'pdf-forms'), (e: Error) => e instanceof ModelAnswerError && /did not answer with a JSON array/.test(e.message));
    assert.throws(() => parseDraftedQueries('[{"query": "x", "should_trigger": "yes"}]', 'pdf-forms'), /must be a boolean/);
    assert.throws(() => parseDraftedQueries(`[${' '.repeat(MAX_MODEL_ANSWER_CHARS)}]`, 'pdf-forms'), /over the 65536 read/);
    assert.throws(() => parseDraftedQueries(`${'['.repeat(20_000)}${']'.repeat(20_000)}`, 'pdf-forms'), /not a valid trigger set[\s\S]*nests/);
  });

  it('holds out about 40% of each kind for validation, and the file it writes passes the trigger checks', () => {
    const qs = [...Array.from({ length: 5 }, (_, i) => ({ query: `should ${i}`, should_trigger: true })), ...Array.from({ length: 4 }, (_, i) => ({ query: `not ${i}`, should_trigger: false }))];
    const split = assignSplits(qs);
    assert.equal(split.filter((q) => q.should_trigger && q.split === 'validation').length, 2);
    assert.equal(split.filter((q) => !q.should_trigger && q.split === 'validation').length, 2);
    const check = checkTriggerQueries(triggerFileText(split), { skill: 'pdf-forms' });
    assert.deepEqual(check.findings, []);
    assert.deepEqual(check.queries, split);
    assert.deepEqual(newQueries(qs.slice(0, 2), [{ query: 'Should 0.', should_trigger: true }, { query: 'fresh', should_trigger: false }]).map((q) => q.query), ['fresh']);
  });

  it('the drafting prompt carries the skill and its neighbours; the suggestion prompt shows the train split only', () => {
    const p = draftPrompt({ name: 'pdf-forms', description: 'Fills PDF forms.', body: 'Use pdftk.' }, [{ name: 'docx', description: 'Word files.' }]);
    assert.match(p, /pdf-forms[\s\S]*Fills PDF forms[\s\S]*Use pdftk[\s\S]*docx: Word files/);
    const results = [requestResult({ query: 'train request', should_trigger: true }, [{ triggered: false, chosen: 'docx' }]), requestResult({ query: 'held out request', should_trigger: true, split: 'validation' }, [{ triggered: false }])];
    const report: TriggerReport = { skill: 'pdf-forms', file: '/f', judge: 'model', catalogSize: 2, trialsPerRequest: 1, startedAt: 'now', results, ...splitScores(results) };
    const s = suggestPrompt({ name: 'pdf-forms', description: 'Fills PDF forms.' }, report);
    assert.match(s, /FAIL\] should select it, selected in 0% \(chose docx instead\): train request/);
    assert.doesNotMatch(s, /held out request/, 'the validation split leaked into the prompt');
  });

  it('reads a proposed description from a JSON object, bounded to 1024 characters', () => {
    assert.equal(parseSuggestedDescription('```json\n{"description": "Fills PDF\\n forms.  Use for tax forms."}\n```'), 'Fills PDF forms. Use for tax forms.');
    assert.throws(() => parseSuggestedDescription('{"text": "x"}'), /no "description"/);
    assert.throws(() => parseSuggestedDescription(`{"description": "${'a'.repeat(1025)}"}`), /over the 1024/);
    assert.throws(() => parseSuggestedDescription('{"description": }'), /not valid JSON/);
  });
});

describe('model judge (core): the last report per trigger file and judge', () => {
  it('is written atomically, read back, and ignored when damaged or of another file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trigger-reports-'));
    try {
      const results = [requestResult({ query: 'q', should_trigger: true }, [{ triggered: true }])];
      const report: TriggerReport = { skill: 's', file: '/skills/s/evals/trigger-queries.json', judge: 'model', catalogSize: 1, trialsPerRequest: 1, startedAt: 'now', results, ...splitScores(results) };
      assert.equal(await readLastReport(localDisk, dir, report.file, 'model'), undefined);
      await writeLastReport(localDisk, dir, report);
      assert.deepEqual(await readLastReport(localDisk, dir, report.file, 'model'), report);
      assert.equal(await readLastReport(localDisk, dir, report.file, 'index'), undefined);
      assert.deepEqual(fs.readdirSync(path.dirname(reportPath(dir, report.file, 'model'))), [path.basename(reportPath(dir, report.file, 'model'))], 'a temp file was left beside the report');
      fs.writeFileSync(reportPath(dir, report.file, 'model'), '{"skill": ');
      assert.equal(await readLastReport(localDisk, dir, report.file, 'model'), undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
