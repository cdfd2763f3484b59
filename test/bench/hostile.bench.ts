/**
 * Hostile SKILL.md texts (the "repeat a prefix" family): `agent-skills validate` on one skill at the read limit
 * (16 MiB; validation reads the first MAX_VALIDATED_CHARS) vs `agent-skills --version` (the process start),
 * goal at most +1000 ms; and the language server's answer to a hover sent right behind a 1 MB document vs the
 * same hover after a small one, goal at most +1000 ms: every prefix in every place a scanner reads (body, whole file,
 * frontmatter value, frontmatter line) and the parser attacks of test/support/hostileDocs, each up to 1 MB.
 * Worst of each reported.
 *
 * `validate`'s goal is judged on the CPU time of its process (user + system): the work it does, which other
 * processes do not add to. Its wall time is judged too when the machine is quiet, and otherwise only printed: on a
 * shared machine a process waits for a core, so the wall time grows with the load (on 2 cores at load 25, a start took
 * 5 times its CPU time), and the worst of 70 prefixes then measures the longest wait, not validate. How busy the
 * machine was is measured in the same run: the wall time of `--version` over its CPU time.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HoverRequest } from 'vscode-languageserver-protocol/node';
import { MAX_SKILL_FILE_BYTES } from '../../src/core/skill/parseLimits';
import { changeDoc, fileUri, openDoc, repoRoot, startServer } from '../server/lspTestClient';
import { hostileDocs } from '../support/hostileDocs';
import { PREFIXES, repeatTo, SHAPES } from '../support/prefixFamily';
import { processCpuMs } from '../support/processCpu';
import { reportDelta, summarize } from './benchUtil';

const cli = path.join(repoRoot, 'dist/cli.js');
/** The most a start's wall time may exceed its CPU time for the machine to count as quiet (its wall time judged). */
const QUIET_WAIT = 2;

/** A preload that writes the process's own CPU time (user + system, ms) to $ASK_BENCH_CPU_OUT as it exits. */
const CPU_PRELOAD = `process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeFileSync(process.env.ASK_BENCH_CPU_OUT, String((u.user + u.system) / 1000)); });`;

/**
 * One run of the CLI: its wall time, and its CPU time (what the process itself spent, which the machine's load
 * hardly changes: on a shared machine the wall time also holds the time spent waiting for a core).
 */
function run(args: string[], cpuOut: string, preload: string): { wall: number; cpu: number } {
  fs.rmSync(cpuOut, { force: true });
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, ['--require', preload, cli, ...args], { stdio: 'ignore', env: { ...process.env, ASK_BENCH_CPU_OUT: cpuOut } });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  return { wall, cpu: Number(fs.readFileSync(cpuOut, 'utf8')) };
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-hostile-bench-'));
  const dir = path.join(root, 'big');
  fs.mkdirSync(dir);
  let ok = true;
  try {
    const preload = path.join(root, 'cpu.cjs');
    fs.writeFileSync(preload, CPU_PRELOAD);
    const cpuOut = path.join(root, 'cpu.txt');
    const wall = (args: string[]) => run(args, cpuOut, preload);
    const starts = Array.from({ length: 5 }, () => wall(['--version']));
    const start = summarize(starts.map((r) => r.wall)).median;
    const startCpu = summarize(starts.map((r) => r.cpu)).median;
    // A start on a quiet machine waits for little but its own work: its wall time is about its CPU time.
    const waiting = start / startCpu;
    const quiet = waiting <= QUIET_WAIT;
    let worst = { ms: 0, prefix: '' };
    let worstCpu = { ms: 0, prefix: '' };
    for (const prefix of PREFIXES) {
      // Under the read limit in UTF-8 bytes, whatever the prefix's characters take.
      const chars = Math.floor((MAX_SKILL_FILE_BYTES - 200) / Buffer.byteLength(prefix)) * prefix.length;
      fs.writeFileSync(path.join(dir, 'SKILL.md'), SHAPES.body(repeatTo(prefix, chars)));
      const [a, b] = [wall(['validate', dir]), wall(['validate', dir])];
      const ms = Math.min(a.wall, b.wall);
      const cpu = Math.min(a.cpu, b.cpu);
      if (ms > worst.ms) worst = { ms, prefix };
      if (cpu > worstCpu.ms) worstCpu = { ms: cpu, prefix };
    }
    ok = reportDelta(`validate one 16 MiB SKILL.md, worst of ${PREFIXES.length} prefixes (${JSON.stringify(worstCpu.prefix)}), vs process start, CPU time of the process`, worstCpu.ms, startCpu, 1000) && ok;
    const wallName = `validate one 16 MiB SKILL.md, worst of ${PREFIXES.length} prefixes (${JSON.stringify(worst.prefix)}), vs process start, wall time`;
    if (quiet) ok = reportDelta(wallName, worst.ms, start, 1000) && ok;
    else console.log(`${wallName}: +${(worst.ms - start).toFixed(3)} ms (${worst.ms.toFixed(3)} ms vs baseline ${start.toFixed(3)} ms), not judged: a start took ${waiting.toFixed(1)}x its CPU time (over ${QUIET_WAIT}x: the machine is busy, and the wall time measures the wait; the CPU line above is the judged one)`);

    // The language server: every document of up to 1 MB this bench knows how to make hostile (each prefix in each
    // place a scanner reads, and the parser attacks of test/support/hostileDocs), each followed at once by a hover.
    // The answer's wall time is judged on a quiet machine; the server's own CPU time for the change and the hover
    // (from /proc) is always printed, and judged when the machine is busy, as for validate above.
    const s = await startServer({ initializationOptions: { debounceMs: 0, scanWorkspace: false } });
    const pid = s.child.pid!;
    const uri = fileUri(path.join(dir, 'SKILL.md'));
    const small = SHAPES.body('small');
    await openDoc(s, uri, small, 1);
    let version = 1;
    const hoverAfter = async (text: string) => {
      const cpu0 = processCpuMs(pid);
      const t0 = process.hrtime.bigint();
      await changeDoc(s, uri, text, ++version);
      await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 2 } });
      return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpu: processCpuMs(pid) - cpu0 };
    };
    const baseRuns: { ms: number; cpu: number }[] = [];
    for (let i = 0; i < 5; i++) baseRuns.push(await hoverAfter(small));
    const base = summarize(baseRuns.map((r) => r.ms)).median;
    const baseCpu = summarize(baseRuns.map((r) => r.cpu)).median;
    const MB = 1_000_000;
    const docs: { name: string; text: string }[] = [];
    // Up to 1 MB in UTF-8 bytes, whatever the prefix's characters take.
    const upTo1MB = (prefix: string) => Math.floor((MB - 200) / Buffer.byteLength(prefix)) * prefix.length;
    for (const [shape, make] of Object.entries(SHAPES)) for (const prefix of PREFIXES) docs.push({ name: `${JSON.stringify(prefix)} in the ${shape}`, text: make(repeatTo(prefix, upTo1MB(prefix))) });
    for (const d of hostileDocs()) if (Buffer.byteLength(d.text) <= MB) docs.push(d);
    const over = docs.filter((d) => Buffer.byteLength(d.text) > MB).map((d) => d.name);
    if (over.length) throw new Error(`documents over 1 MB: ${over.join(', ')}`);
    let slow = { ms: 0, what: '' };
    let slowCpu = { ms: 0, what: '' };
    let largest = 0;
    for (const d of docs) {
      largest = Math.max(largest, Buffer.byteLength(d.text));
      const r = await hoverAfter(d.text);
      if (r.ms > slow.ms) slow = { ms: r.ms, what: d.name };
      if (r.cpu > slowCpu.ms) slowCpu = { ms: r.cpu, what: d.name };
    }
    await s.stop();
    const lspName = (what: string) => `language server: hover right behind a document of up to 1 MB, worst of ${docs.length} (${what}; largest ${largest} bytes), vs behind a small one`;
    ok = reportDelta(`${lspName(slowCpu.what)}, CPU time of the server`, slowCpu.ms, baseCpu, 1000) && ok;
    if (quiet) ok = reportDelta(`${lspName(slow.what)}, wall time`, slow.ms, base, 1000) && ok;
    else console.log(`${lspName(slow.what)}, wall time: +${(slow.ms - base).toFixed(3)} ms (${slow.ms.toFixed(3)} ms vs baseline ${base.toFixed(3)} ms), not judged: the machine is busy (see above); the CPU line above is the judged one`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

void main();
