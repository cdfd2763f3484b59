// The extension's cost on top of loading its bundle: each run is a fresh Node process that requires
// dist/extension.js (baseline), or requires it, calls activate() and waits until the skill catalog is ready
// (the skills of the sample workspace scanned, as the Skills view waits for them). Both with the same `vscode` shim
// (test/bench/vscodeShim.cjs), interleaved. Goal (issue 5): activation to catalog ready <= +30 ms.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { reportDelta, summarize } from './benchUtil';

const root = path.resolve(__dirname, '..', '..');
const bundle = path.join(root, 'dist', 'extension.js');
const child = path.join(__dirname, 'activationChild.cjs');
const workspace = path.join(root, 'test', 'fixtures', 'sample-workspace');

function once(mode: 'require' | 'activate', storage: string): { required: number; activated?: number; ready?: number; readyCpu?: number; skills?: number } {
  const r = spawnSync(process.execPath, [child, mode, bundle, workspace, storage], { encoding: 'utf8', env: { ...process.env, HOME: storage } });
  if (r.status !== 0) throw new Error(`activation child (${mode}) failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string);
}

function main(): void {
  if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing; run node scripts/build.mjs`);
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-activation-'));
  const runs = 15;
  const requireAlone: number[] = [];
  const requireWith: number[] = [];
  const added: number[] = [];
  const addedCpu: number[] = [];
  const activateOnly: number[] = [];
  once('require', storage);
  once('activate', storage);
  for (let i = 0; i < runs; i++) {
    requireAlone.push(once('require', storage).required);
    const a = once('activate', storage);
    if (a.skills !== 4) throw new Error(`the catalog had ${a.skills} skills, expected the sample workspace's 4`);
    requireWith.push(a.required);
    added.push(a.ready as number);
    addedCpu.push(a.readyCpu as number);
    activateOnly.push(a.activated as number);
  }
  const b = summarize(requireAlone).median;
  // The time added after the bundle is loaded is measured in the same process as the load (require times
  // of separate processes differ by tens of ms on a shared machine, which would drown the difference).
  const d = summarize(added).median;
  const ok = reportDelta(`require + activate() + catalog ready vs require alone (median of ${runs} fresh processes)`, b + d, b, 30);
  console.log(
    `  info: activate() itself ${summarize(activateOnly).median.toFixed(2)} ms; activate() to catalog ready ${d.toFixed(2)} ms wall, ${summarize(addedCpu).median.toFixed(2)} ms CPU; ` +
      `require alone ${b.toFixed(1)} ms (in the activated processes ${summarize(requireWith).median.toFixed(1)} ms)`,
  );
  fs.rmSync(storage, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}

main();
