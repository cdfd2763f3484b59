// Property test of the mount plan (issue 22, point 1): generated hostile skills (links to /, .., HOME, the
// state folder, a host socket, /proc/1/root, chains of links; #! lines through every one of them, relative
// and absolute, bare and through env; some as a command's program) are run by the real runner; a bwrap placed first on its PATH records
// the argument list it is given (and answers --help with the real bwrap's). Over every recorded list: no
// bind source resolves outside the allowed set (the system view, the run's own folders under the state
// folder, a toolchain folder), and none lies in the skill, HOME, /tmp outside the state folder, /run, /proc.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { isInside } from '../../../src/core/paths/isInside';
import { hostSystemView } from '../../../src/core/exec/sandboxView';
import { seededRandom as rng } from '../../support/seededRandom';
import { cleanup, onPath, setup, type Sandbox } from './helpers';

const SOURCE_FLAGS = new Set(['--bind', '--ro-bind', '--bind-try', '--ro-bind-try', '--dev-bind', '--dev-bind-try']);

/** The sources of every bind in a bwrap argument list (before `--`: what follows is the script's argv). */
export function bindSources(args: readonly string[]): string[] {
  const end = args.indexOf('--');
  const out: string[] = [];
  for (let i = 0; i < (end < 0 ? args.length : end); i++) if (SOURCE_FLAGS.has(args[i])) out.push(args[++i]), i++;
  return out;
}

describe('core/exec mount plan property: no bind source outside the allowed set, for generated hostile skills', function () {
  this.timeout(240000);
  let sb: Sandbox;
  let logDir: string;
  let fakeDir: string;
  let sock: string;
  let server: net.Server | undefined;
  const seed = Number(process.env.MOUNT_PLAN_SEED ?? Date.now() % 100000);

  before(async function () {
    sb = setup();
    if (process.platform !== 'linux' || !onPath('bwrap')) {
      console.log('      skipped: needs Linux with bwrap installed (the property is over bwrap argument lists)');
      this.skip();
    }
    logDir = path.join(sb.tmp, 'bwrap-calls');
    fakeDir = path.join(sb.tmp, 'fake-bin');
    fs.mkdirSync(logDir);
    fs.mkdirSync(fakeDir);
    const real = fs.realpathSync(process.env.PATH!.split(':').map((d) => path.join(d, 'bwrap')).find((p) => fs.existsSync(p))!);
    // bwrap is started with an empty environment: the log folder is written into the script.
    fs.writeFileSync(
      path.join(fakeDir, 'bwrap'),
      `#!/bin/sh\nif [ "$1" = --help ]; then exec ${real} --help; fi\nf=${logDir}/$$.$(date +%s%N)\nfor a in "$@"; do printf '%s\\0' "$a"; done > "$f.tmp" && mv "$f.tmp" "$f"\nexit 0\n`,
      { mode: 0o755 },
    );
    sock = path.join(os.tmpdir(), `agent-skills-prop-${process.pid}.sock`);
    const srv = net.createServer((c) => c.end('host\n'));
    await new Promise<void>((resolve) => srv.listen(sock, resolve));
    server = srv;
    console.log(`      seed ${seed} (replay with MOUNT_PLAN_SEED=${seed})`);
  });
  after(async () => {
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    if (sock) fs.rmSync(sock, { force: true });
    cleanup(sb);
  });

  it('holds for 60 generated skills', async () => {
    const rand = rng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    const runner = sb.runner({ sandbox: 'required', searchPath: `${fakeDir}:${process.env.PATH}` });
    // With a command list on, a command's program is resolved by the runner (no shell): the model names it.
    const lists = sb.runner({ sandbox: 'required', searchPath: `${fakeDir}:${process.env.PATH}`, deniedCommands: ['rm'] });
    assert.equal((await runner.sandboxStatus()).sandboxed, true, 'the recording bwrap passes the probe');
    const view = hostSystemView();
    const real = (p: string) => {
      try {
        return fs.realpathSync(p);
      } catch {
        return path.resolve(p);
      }
    };
    const stateReal = real(sb.stateDir);
    const ownRoots = ['runs', 'skills', 'deps'].map((d) => path.join(stateReal, d));
    const systemRoots = view.binds.map(real);
    const toolchain = ['/opt', '/nix/store', '/gnu/store', '/snap'].map(real);
    const never = ['/', '/proc', '/sys', '/run', '/dev', real(os.homedir()), real(os.tmpdir()), '/tmp'];

    let calls = 0;
    let commandCalls = 0;
    for (let n = 0; n < 60; n++) {
      const name = `hostile-${n}`;
      const root = path.join(sb.tmp, 'skills', name);
      fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
      fs.writeFileSync(path.join(root, 'SKILL.md'), `---\nname: ${name}\ndescription: hostile ${n}\n---\nbody\n`);
      // A real executable inside the skill (a copy of sh): trusted by nobody.
      fs.copyFileSync(fs.realpathSync('/bin/sh'), path.join(root, 'scripts', 'mysh'));
      fs.chmodSync(path.join(root, 'scripts', 'mysh'), 0o755);
      const targets = ['/', '..', '../..', os.homedir(), sb.stateDir, path.join(sb.stateDir, 'skills'), sock, '/proc/1/root', '/proc/self/root', '/usr/../', path.dirname(root), 'scripts'];
      const links: string[] = [];
      const count = 1 + Math.floor(rand() * 4);
      for (let k = 0; k < count; k++) {
        const link = `lnk${k}`;
        // A chain: the next link points at the one before it (relative), or at a target.
        const target = k > 0 && rand() < 0.4 ? `${links[k - 1]}` : pick(targets);
        fs.symlinkSync(target, path.join(root, link));
        links.push(link);
      }
      const via = pick(links);
      const inner = pick(['bin/sh', 'bin/bash', 'usr/bin/bash', `${path.relative('/', os.homedir())}/../../bin/sh`, 'scripts/mysh', 'mysh', 'lib/../bin/sh']);
      const shebang = pick([
        `${root}/${via}/${inner}`,
        `${via}/${inner}`,
        `./${via}/${inner}`,
        `../${name}/${via}/${inner}`,
        `/usr/bin/env ${root}/${via}/${inner}`,
        `${root}/scripts/mysh`,
        `${root}/${via}/../${via}/${inner}`,
      ]);
      const script = pick(['evil', 'evil.sh']);
      fs.writeFileSync(path.join(root, 'scripts', script), `#!${shebang}\necho hi\n`, { mode: 0o755 });
      const before = new Set(fs.readdirSync(logDir));
      // One skill in four is attacked through a command whose program goes through the same links.
      const asCommand = rand() < 0.25;
      const bare = shebang.startsWith('/usr/bin/env ') ? shebang.slice('/usr/bin/env '.length) : shebang;
      const program = path.isAbsolute(bare) ? bare : `${root}/${bare}`;
      const r = await (asCommand
        ? lists.run({ skillName: name, skillRoot: root, command: `${program} -c true`, timeoutMs: 15000 })
        : runner.run({ skillName: name, skillRoot: root, script: `scripts/${script}`, timeoutMs: 15000 })
      ).catch((e: Error) => e);
      const made = fs.readdirSync(logDir).filter((f) => !before.has(f) && !f.endsWith('.tmp'));
      if (r instanceof Error) {
        // A refusal (an interpreter the sandbox cannot show) starts nothing: nothing to check.
        assert.equal(made.length, 0, `${name}: refused (${r.message}) yet bwrap ran`);
        continue;
      }
      assert.equal(made.length, 1, `${name}: one bwrap call per run (#!${shebang}; ${JSON.stringify(r.stderr)})`);
      calls++;
      if (asCommand) commandCalls++;
      const args = fs.readFileSync(path.join(logDir, made[0]), 'utf8').split('\0').slice(0, -1);
      const sources = bindSources(args);
      assert.ok(sources.length > 0);
      for (const s of sources) {
        const rs = real(s);
        const where = `${name}: bind source ${s} (real ${rs}), #!${shebang}, links ${links.map((l) => `${l} -> ${fs.readlinkSync(path.join(root, l))}`).join(', ')}`;
        assert.equal(s, rs, `${where}: not canonical`);
        if (rs === '/dev/null') continue;
        // A root runner's first stage shows the host's /proc (the kernel lets the second stage mount its own /proc
        // only where a whole one is visible), which the second stage covers with its own: bubblewrap.ts RootDrop.
        if (rs === '/proc' && args.includes('--clear-groups') && args.slice(args.indexOf('--clear-groups')).includes('/proc')) continue;
        const own = ownRoots.some((o) => isInside(o, rs));
        const system = systemRoots.some((o) => isInside(o, rs));
        const tool = toolchain.some((o) => isInside(o, rs));
        assert.ok(own || system || tool, `${where}: outside the allowed set`);
        assert.ok(!isInside(real(root), rs) && !isInside(rs, real(root)), `${where}: the skill's own folder`);
        if (!own) assert.ok(!never.some((x) => isInside(x, rs) && (x !== '/' || rs === '/')), `${where}: a folder never shown`);
      }
    }
    // The generator must reach the runner: most skills run (a #! the sandbox refuses falls back to the PATH program;
    // a command whose program it refuses is refused).
    assert.ok(calls >= 20, `only ${calls} of 60 generated skills ran`);
    console.log(`      ${calls} of 60 ran (${commandCalls} as a command), the rest were refused before bwrap`);
  });
});
