import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { digestOf, isTempName, RevisionStore, sweepTempFiles, type VersionRef } from '../../../src/core/edit';
import { CRASH_FILES, CRASH_SKILL_ID, newSkillFiles, seededRandom, versionContent, VERSIONS } from '../../support/crashVersions';
import { makeTempDir } from '../../support/tempDir';
import { testSize } from '../../support/testSize';

/** Two independent lanes (own folder, own seed) run side by side to keep the test short. */
const LANES = 2;
const KILLS_PER_LANE = testSize('kills per lane', 50, 10);
const SEED = 20250917;

/**
 * Runs the child, waits until it reports `afterWrites` completed writes (0 = just started),
 * then `delayMs` more, and SIGKILLs it wherever it is. Resolves when it is gone.
 */
function runAndKill(script: string, workDir: string, seed: number, afterWrites: number, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, workDir, String(seed)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let out = '';
    let armed = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!armed && out.startsWith('ready') && (out.match(/^w$/gm)?.length ?? 0) >= afterWrites) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`crash writer exited by itself (code ${code}): ${stderr}`));
    });
  });
}

interface LaneStats {
  writes: number;
  folders: number;
  tempLeft: number;
  torn: number;
}

async function runLane(script: string, workDir: string, lane: number): Promise<LaneStats> {
  const skillDir = path.join(workDir, 'skills', 'crash-demo');
  const allowed = new Map<string, Set<VersionRef>>();
  for (const file of CRASH_FILES) {
    allowed.set(file, new Set(Array.from({ length: VERSIONS }, (_, k) => digestOf(versionContent(file, k)))));
    fs.mkdirSync(path.dirname(path.join(skillDir, file)), { recursive: true });
    fs.writeFileSync(path.join(skillDir, file), versionContent(file, 0));
  }
  const random = seededRandom(SEED + lane);
  const verifiedFolders = new Set<string>();
  const stats: LaneStats = { writes: 0, folders: 0, tempLeft: 0, torn: 0 };
  let blobChecked = 0;

  const check = async (): Promise<void> => {
    for (const file of CRASH_FILES) {
      const digest = digestOf(fs.readFileSync(path.join(skillDir, file)));
      assert.ok(allowed.get(file)!.has(digest), `${file} is neither an old nor a new version (digest ${digest})`);
    }
    for (const name of fs.readdirSync(path.join(workDir, 'skills'))) {
      if (isTempName(name) || name === 'crash-demo' || verifiedFolders.has(name)) continue;
      for (const f of newSkillFiles(name)) {
        assert.equal(fs.readFileSync(path.join(workDir, 'skills', name, f.path), 'utf8'), f.content, `${name}/${f.path} of an atomically created folder is incomplete`);
      }
      verifiedFolders.add(name);
    }
    const store = new RevisionStore(path.join(workDir, 'revisions'));
    const log = await store.read(CRASH_SKILL_ID);
    assert.deepEqual(log.invalid, [], 'no corrupt line before the end of the log');
    if (log.torn) stats.torn++;
    log.records.forEach((r, i) => {
      assert.equal(r.seq, i + 1, 'revisions are numbered without gaps');
      assert.ok(allowed.get(r.file)!.has(r.digest!), `revision ${r.seq} records an unknown version`);
    });
    // every inline content and blob matches its digest (content() verifies)
    for (; blobChecked < log.records.length; blobChecked++) await store.content(log.records[blobChecked]);
    stats.writes = log.records.length;
  };

  for (let run = 0; run < KILLS_PER_LANE; run++) {
    await runAndKill(script, workDir, (SEED + lane) * 1000 + run, Math.floor(random() * 3), random() * 12);
    await check();
    // leftovers of an interrupted write are recognisable and can be swept
    let swept = (await sweepTempFiles(path.join(workDir, 'skills'), 0)).length;
    for (const sub of ['', 'references', 'scripts']) swept += (await sweepTempFiles(path.join(skillDir, sub), 0)).length;
    if (swept) stats.tempLeft++;
    assert.ok(!fs.readdirSync(path.join(workDir, 'skills'), { recursive: true }).some((n) => isTempName(path.basename(String(n)))));
  }
  stats.folders = verifiedFolders.size;
  return stats;
}

describe('edit/crash: SIGKILL during updateSkill-like writes', function () {
  this.timeout(120_000);
  let dir: string;
  let cleanup: () => void;
  before(() => ({ dir, cleanup } = makeTempDir('skills-crash-')));
  after(() => cleanup());

  it(`leaves every file old or new and the revision store readable after ${LANES * KILLS_PER_LANE} random kills`, async () => {
    const script = path.join(dir, 'crashWriter.js');
    buildSync({ entryPoints: [path.join(__dirname, '../../support/crashWriter.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: script, logLevel: 'silent' });
    const started = Date.now();
    const lanes = await Promise.all(Array.from({ length: LANES }, (_, lane) => runLane(script, path.join(dir, `lane${lane}`), lane)));
    const total = lanes.reduce((a, l) => ({ writes: a.writes + l.writes, folders: a.folders + l.folders, tempLeft: a.tempLeft + l.tempLeft, torn: a.torn + l.torn }));
    // About one recorded write per kill or more (a kill after 0-2 writes); the full run must cover at least 100.
    const minWrites = LANES * KILLS_PER_LANE;
    assert.ok(total.writes >= minWrites, `only ${total.writes} revisions were written; the test must cover at least ${minWrites} writes`);
    console.log(
      `      ${LANES * KILLS_PER_LANE} kills, ${total.writes} recorded writes, ${total.folders} atomically created folders, ` +
        `${total.tempLeft} kills interrupted a write (temp file or folder left), ${total.torn} torn log tails, ${Date.now() - started} ms`,
    );
  });
});
