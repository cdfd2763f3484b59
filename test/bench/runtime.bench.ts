// Runtime benchmarks, as ratios measured in one run:
//  - catalog tokens and the prompt tokens of a scripted load -> read -> run session vs full injection of
//    every SKILL.md of the anthropic-skills corpus (goals <= 0.04 and <= 0.06);
//  - the shared-prefix fraction across that loop in tool-results placement (goal >= 0.95), next to the
//    instructions placement;
//  - load and read through the runtime vs fs.readFile of the same file (goal <= 1.2x + 1 ms).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createScriptRunner } from '../../src/core/exec';
import { o200kCounter, promptTokens, serializeCall, sharedPrefixFraction, type ChatMessage, type ComposeResult } from '../../src/core/prompt';
import { createSkillRegistry } from '../../src/core/registry';
import { createSkillsRuntime, skillSourceOf, type SkillsRuntime } from '../../src/core/runtime';
import { toolResultText } from '../../src/core/toolTable';
import { measure } from './benchUtil';

const repoRoot = path.resolve(__dirname, '../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/anthropic-skills');
const SKILL = 'webapp-testing';
const REQUEST = 'Test my local web app with Playwright and capture the browser console logs.';

function goal(name: string, value: number, cmp: '<=' | '>=', target: number, detail: string): boolean {
  const ok = cmp === '<=' ? value <= target : value >= target;
  console.log(`${name}: ${value.toFixed(4)} (${detail}), goal ${cmp} ${target}: ${ok ? 'PASS' : 'MISS'}`);
  return ok;
}

/** One scripted tool loop: user request, load, read a referenced example, run the skill's script. */
async function scriptedLoop(rt: SkillsRuntime, sessionId: string): Promise<{ calls: ComposeResult[]; histories: ChatMessage[][] }> {
  const history: ChatMessage[] = [];
  const calls: ComposeResult[] = [];
  const histories: ChatMessage[][] = [];
  let n = 0;
  const compose = async () => {
    histories.push([...history]);
    calls.push(await rt.compose(sessionId, history));
  };
  const tool = async (name: string, input: unknown) => {
    const callId = `call_${++n}`;
    history.push({ role: 'assistant', content: '' }, { role: 'tool-call', callId, name, input });
    const r = await rt.invoke(name, input, { sessionId, callId });
    if (!r.ok) throw new Error(`${name} failed: ${r.error.message}`);
    history.push({ role: 'tool-result', callId, content: toolResultText(r) });
  };
  await rt.beginTurn(sessionId, REQUEST);
  history.push({ role: 'user', content: REQUEST });
  await compose();
  await tool('load', { names: [SKILL] });
  await compose();
  await tool('read', { path: 'examples/console_logging.py' });
  await compose();
  await tool('run_script', { script: 'scripts/with_server.py', args: ['--help'] });
  await compose();
  return { calls, histories };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-bench-'));
  let failed = 0;
  try {
    const registry = createSkillRegistry({ roots: [{ path: corpus, scope: 'workspace' }] });
    await registry.refresh();
    const source = skillSourceOf(registry);
    const skills = source.list();
    const full = skills.map((s) => fs.readFileSync(s.location, 'utf8')).join('\n\n');
    const fullTokens = o200kCounter.count(full);
    console.log(`corpus: ${skills.length} skills, full injection of every SKILL.md = ${fullTokens} tokens`);

    const make = (placement: 'instructions' | 'tool-results', dir: string) => {
      const runner = createScriptRunner({ stateDir: path.join(tmp, dir, 'exec'), sandbox: 'off' });
      return createSkillsRuntime({ source, stateDir: path.join(tmp, dir), executor: runner, placement });
    };

    // 1. Catalog tokens vs full injection.
    const first = await make('instructions', 'catalog').compose('c', [{ role: 'user', content: REQUEST }]);
    if (!goal('catalog tokens / full injection', first.catalog.tokens / fullTokens, '<=', 0.04, `${first.catalog.tokens} vs ${fullTokens} tokens; whole instructions ${first.tokens.instructions}`)) failed++;

    // 2. Prompt tokens of the scripted session vs the same session with every SKILL.md injected.
    const loops: Record<string, ComposeResult[]> = {};
    for (const placement of ['tool-results', 'instructions'] as const) {
      const { calls, histories } = await scriptedLoop(make(placement, placement), 's');
      loops[placement] = calls;
      const ours = calls.reduce((n, c) => n + promptTokens(c, o200kCounter), 0);
      const baseline = histories.reduce((n, h) => n + promptTokens({ instructions: full, messages: h }, o200kCounter), 0);
      const line = `${calls.length} calls: ${ours} vs ${baseline} tokens`;
      if (placement === 'tool-results') {
        if (!goal('session prompt tokens / full injection (tool-results)', ours / baseline, '<=', 0.06, line)) failed++;
      } else console.log(`session prompt tokens / full injection (instructions): ${(ours / baseline).toFixed(4)} (${line})`);
    }

    // 3. Shared prefix between consecutive calls of the loop.
    const tr = sharedPrefixFraction(loops['tool-results']);
    const ins = sharedPrefixFraction(loops.instructions);
    if (!goal('shared-prefix fraction, tool-results placement', tr, '>=', 0.95, `instructions placement: ${ins.toFixed(4)}; last call ${serializeCall(loops['tool-results'][3]).length} chars`)) failed++;

    // 4. load and read through the runtime vs fs.readFile of the same file.
    const rt = make('instructions', 'latency');
    await rt.openSession('lat');
    const skillMd = path.join(corpus, SKILL, 'SKILL.md');
    const example = path.join(corpus, SKILL, 'examples/console_logging.py');
    const runs = 300;
    const baseLoad = await measure(() => fs.promises.readFile(skillMd), runs, 30);
    const load = await measure(async () => {
      const r = await rt.invoke('load', { names: [SKILL] }, { sessionId: 'lat' });
      if (!r.ok) throw new Error(r.error.message);
    }, runs, 30);
    const baseRead = await measure(() => fs.promises.readFile(example), runs, 30);
    const read = await measure(async () => {
      const r = await rt.invoke('read', { path: 'examples/console_logging.py' }, { sessionId: 'lat' });
      if (!r.ok) throw new Error(r.error.message);
    }, runs, 30);
    for (const [name, ours, base] of [
      ['load', load.median, baseLoad.median],
      ['read', read.median, baseRead.median],
    ] as const) {
      const limit = 1.2 * base + 1;
      const ok = ours <= limit;
      console.log(`${name} vs fs.readFile: ${ours.toFixed(3)} ms vs ${base.toFixed(3)} ms (${(ours / base).toFixed(2)}x), goal <= 1.2x + 1 ms = ${limit.toFixed(3)} ms: ${ok ? 'PASS' : 'MISS'}`);
      if (!ok) failed++;
    }
    await rt.flush();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
