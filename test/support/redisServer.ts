// A real redis-server for a test: its own temp folder, a free loopback port, no persistence, started as the user
// running the tests (root or the unprivileged account). Ready when it says so on stdout (with a deadline), never
// after a sleep. A missing program fails the test naming scripts/setup-redis.mjs: it is never skipped.
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempDir } from './tempDir';

/** A running Redis and how to stop it. */
export interface TestRedis {
  url: string;
  port: number;
  child: ChildProcess;
  log: () => string;
  stop(): Promise<void>;
}

/** A free loopback port (the kernel's choice, released at once; redis-server binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function redisProgram(): Promise<string> {
  const script = pathToFileURL(path.resolve(__dirname, '../../scripts/setup-redis.mjs')).href;
  const { redisServerPath } = (await import(script)) as { redisServerPath: () => string | undefined };
  const p = redisServerPath();
  if (!p) throw new Error('redis-server is not installed: run `node scripts/setup-redis.mjs` (npm test does; as root it installs Debian\'s redis-server).');
  return p;
}

/** Starts redis-server on 127.0.0.1; resolves once it accepts connections (deadline `readyMs`). */
export async function startRedis(readyMs = 20_000): Promise<TestRedis> {
  const program = await redisProgram();
  const tmp = makeTempDir('redis-test-');
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(program, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmp.dir, '--daemonize', 'no', '--protected-mode', 'yes', '--loglevel', 'notice'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const ready = await new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not become ready within ${readyMs} ms:\n${log}`)), readyMs);
      const onData = (d: Buffer) => {
        log += d.toString();
        if (/Ready to accept connections/.test(log)) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      tmp.cleanup();
    };
    if (ready) return { url: `redis://127.0.0.1:${port}/0`, port, child, log: () => log, stop };
    // The port was taken between the probe and the bind: try another, a few times.
    if (attempt >= 3 || !/Address already in use/.test(log)) {
      tmp.cleanup();
      throw new Error(`redis-server exited before it was ready:\n${log}`);
    }
  }
}
