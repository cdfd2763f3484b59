// `node scripts/lint-precision.mjs [--json] [--host <host>] [--on <rule,…>]`: how right the SKILL.md linter is about published
// skills. Runs the built CLI (`dist/cli.js validate --json`, lenient) over every skill of shared/realworld/
// (a copy of shared/ beside the checkout: ../shared; AGENT_SKILLS_SHARED names another), compares each
// finding with the judged findings (judged-findings.tsv: TP, FP, DEBATABLE, and MISSED problems no rule
// reported) and prints precision per rule and overall, recall of the judged-true findings and of the
// missed problems, and the wrong errors. --on turns on rules that are off by default (command-undeclared; its confident
// part, own-command-undeclared, is on and catches the whole-skill missed problem). The
// mocha regression test and `npm run bench` call measure().
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The realworld folder (`../shared/realworld` beside the checkout, or under AGENT_SKILLS_SHARED), or undefined. */
export function realworldDir() {
  const shared = process.env.AGENT_SKILLS_SHARED ? resolve(process.env.AGENT_SKILLS_SHARED) : resolve(root, '..', 'shared');
  const dir = join(shared, 'realworld');
  return existsSync(join(dir, 'judged-findings.tsv')) && existsSync(join(dir, 'MANIFEST.tsv')) ? dir : undefined;
}

function tsv(file) {
  const [head, ...rows] = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const cols = head.split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v])));
}

/** The skill folders of the manifest, as folder names under realworld/ (`owner+repo/path`). */
export function manifestSkills(dir) {
  return tsv(join(dir, 'MANIFEST.tsv')).map((r) => `${r.repo.replace('/', '+')}/${r.path}`);
}

const key = (rule, skill, file, line) => `${rule}\t${skill}\t${file}\t${line}`;

/** Runs the linter (dist/cli.js, lenient) over every skill; returns one { skill, rule, severity, file, line, message } per finding. */
export function runLinter(dir, extraArgs = []) {
  const cli = join(root, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
  const skills = manifestSkills(dir);
  const r = spawnSync(process.execPath, [cli, 'validate', '--json', ...extraArgs, ...skills], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`validate exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  const results = JSON.parse(r.stdout);
  const out = [];
  for (const res of results) {
    for (const d of res.diagnostics) {
      out.push({ skill: res.path, rule: d.rule, severity: d.severity, file: d.file ?? 'SKILL.md', line: d.range.start.line + 1, message: d.message });
    }
  }
  return out;
}

/**
 * Compares the linter's findings with the judged ones. A finding is judged when a judged row has its rule,
 * skill, file and line. A missed problem counts as caught when any finding sits on its skill, file and line.
 */
export function compare(dir, findings) {
  const judged = tsv(join(dir, 'judged-findings.tsv'));
  const verdicts = new Map();
  for (const j of judged) if (j.verdict !== 'MISSED') verdicts.set(key(j.rule, j.skill, j.file, j.line), j.verdict);
  const perRule = new Map();
  const seen = new Set();
  const wrongErrors = [];
  const unjudged = [];
  for (const f of findings) {
    const k = key(f.rule, f.skill, f.file, f.line);
    const v = verdicts.get(k);
    seen.add(k);
    const s = perRule.get(f.rule) ?? { rule: f.rule, findings: 0, TP: 0, FP: 0, DEBATABLE: 0, unjudged: 0, errors: 0 };
    perRule.set(f.rule, s);
    s.findings++;
    if (v) s[v]++;
    else {
      s.unjudged++;
      unjudged.push(f);
    }
    if (f.severity === 'error') {
      s.errors++;
      if (v !== 'TP') wrongErrors.push(f);
    }
  }
  const lost = judged.filter((j) => j.verdict === 'TP' && !seen.has(key(j.rule, j.skill, j.file, j.line)));
  const back = judged.filter((j) => j.verdict === 'FP' && seen.has(key(j.rule, j.skill, j.file, j.line)));
  const missed = judged.filter((j) => j.verdict === 'MISSED');
  // A problem of the whole skill (no line) cannot be told from the skill's other findings by place: it counts as
  // caught when a finding on its skill and file, judged in no row, quotes what the note names in code (`mcp-cli`),
  // field names aside.
  const named = (note) => [...note.matchAll(/`([^`]+)`/g)].map((x) => x[1]).filter((w) => !/^(?:name|description|compatibility|allowed-tools|license|metadata)$/.test(w));
  const caught = missed.filter((m) =>
    m.line !== ''
      ? findings.some((f) => f.skill === m.skill && f.file === m.file && String(f.line) === m.line)
      : findings.some((f) => f.skill === m.skill && f.file === m.file && !verdicts.has(key(f.rule, f.skill, f.file, f.line)) && named(m.note).some((w) => f.message.includes(`\`${w}\``))),
  );
  const nonErrors = findings.filter((f) => f.severity !== 'error');
  const count = (verdict) => nonErrors.filter((f) => verdicts.get(key(f.rule, f.skill, f.file, f.line)) === verdict).length;
  const tp = count('TP');
  const fp = count('FP');
  const deb = count('DEBATABLE');
  return {
    rules: [...perRule.values()].sort((a, b) => a.rule.localeCompare(b.rule)),
    findings: findings.length,
    warningsAndInfos: { findings: nonErrors.length, TP: tp, FP: fp, DEBATABLE: deb, unjudged: nonErrors.length - tp - fp - deb },
    /** Judged true ÷ judged true or false (debatable left out), over warnings and infos. */
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    /** The same with debatable findings counted as not true. */
    precisionDebatableFalse: tp + fp + deb === 0 ? 1 : tp / (tp + fp + deb),
    recallJudgedTrue: { found: judged.filter((j) => j.verdict === 'TP').length - lost.length, of: judged.filter((j) => j.verdict === 'TP').length },
    lost,
    back,
    missed: { caught: caught.length, of: missed.length, notCaught: missed.filter((m) => !caught.includes(m)) },
    wrongErrors,
    unjudged,
  };
}

/** Arguments for runLinter that turn on rules off by default (at info), through a config file in a temp folder. */
export function rulesOn(ids) {
  const file = join(mkdtempSync(join(tmpdir(), 'lint-rules-')), '.agent-skills.yaml');
  writeFileSync(file, `rules:\n${ids.map((id) => `  ${id}: info\n`).join('')}`);
  return ['--config', file];
}

/** Runs the linter over realworld/ and compares: see {@link compare}. */
export function measure(dir = realworldDir(), extraArgs = []) {
  if (!dir) throw new Error('shared/realworld not found beside the checkout (../shared) nor under AGENT_SKILLS_SHARED');
  return compare(dir, runLinter(dir, extraArgs));
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;

/** The report as text lines. */
export function report(m) {
  const lines = ['rule                          findings  TP  FP  DEB  unjudged  precision(TP/(TP+FP))'];
  for (const r of m.rules) {
    const p = r.TP + r.FP === 0 ? '-' : pct(r.TP / (r.TP + r.FP));
    lines.push(`${r.rule.padEnd(30)}${String(r.findings).padStart(8)}${String(r.TP).padStart(4)}${String(r.FP).padStart(4)}${String(r.DEBATABLE).padStart(5)}${String(r.unjudged).padStart(10)}  ${p}`);
  }
  const w = m.warningsAndInfos;
  lines.push('');
  lines.push(`warnings+infos: ${w.findings} findings, judged ${w.TP} TP, ${w.FP} FP, ${w.DEBATABLE} debatable, ${w.unjudged} unjudged`);
  lines.push(`precision (TP / (TP+FP)): ${pct(m.precision)}; with debatable counted false: ${pct(m.precisionDebatableFalse)}`);
  lines.push(`recall of judged-true findings: ${m.recallJudgedTrue.found}/${m.recallJudgedTrue.of}`);
  lines.push(`missed problems now caught: ${m.missed.caught}/${m.missed.of}`);
  for (const x of m.missed.notCaught) lines.push(`  not caught: ${x.skill} ${x.file}:${x.line} ${x.note.slice(0, 120)}`);
  lines.push(`judged-false findings back: ${m.back.length}`);
  for (const x of m.back) lines.push(`  back: ${x.rule} ${x.skill} ${x.file}:${x.line}`);
  lines.push(`judged-true findings lost: ${m.lost.length}`);
  for (const x of m.lost) lines.push(`  lost: ${x.rule} ${x.skill} ${x.file}:${x.line}`);
  lines.push(`wrong errors: ${m.wrongErrors.length}`);
  for (const x of m.wrongErrors) lines.push(`  error: ${x.rule} ${x.skill} ${x.file}:${x.line} ${x.message.slice(0, 120)}`);
  return lines;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const unjudged = args.includes('--unjudged');
  const hostAt = args.indexOf('--host');
  const onAt = args.indexOf('--on');
  const extra = [...(hostAt >= 0 ? ['--host', args[hostAt + 1]] : []), ...(onAt >= 0 ? rulesOn(args[onAt + 1].split(',')) : [])];
  const dir = realworldDir();
  if (!dir) {
    console.error('lint-precision: shared/realworld not found beside the checkout (../shared); set AGENT_SKILLS_SHARED to the shared folder');
    process.exit(2);
  }
  const m = measure(dir, extra);
  if (json) console.log(JSON.stringify(m, null, 2));
  else {
    for (const l of report(m)) console.log(l);
    if (unjudged) for (const f of m.unjudged) console.log(`unjudged: ${f.severity} ${f.rule} ${f.skill} ${f.file}:${f.line} ${f.message.slice(0, 200)}`);
  }
}
