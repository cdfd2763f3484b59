// Installs, once, Debian's redis-server for the tests that run several `agent-skills mcp` replicas sharing one
// Redis (test/cli/mcpReplicas.test.ts, test/core/runtime/redisStateStore.test.ts). The tests start their own
// server on a loopback port in a temp folder, with no persistence; this script only makes sure the program is
// there. As root it runs apt-get; as anyone else it fails, saying what to run. It never skips.
// Usage: node scripts/setup-redis.mjs
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the tests look for redis-server (SKILLS_REDIS_SERVER overrides). */
export function redisServerPath() {
  if (process.env.SKILLS_REDIS_SERVER) return process.env.SKILLS_REDIS_SERVER;
  for (const p of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) if (existsSync(p)) return p;
  const which = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

/** Installs redis-server unless present; returns its path, or throws with the reason and the fix. */
export function ensureRedis() {
  const have = redisServerPath();
  if (have) return have;
  if (process.getuid?.() !== 0) throw new Error('[setup-redis] redis-server is not installed and this is not root: run `sudo apt-get install -y redis-server` (Debian), or set SKILLS_REDIS_SERVER to a redis-server program.');
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'redis-server']]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) throw new Error(`[setup-redis] apt-get ${args.join(' ')} failed (${r.status ?? r.signal}); the replica tests need redis-server.`);
  }
  const now = redisServerPath();
  if (!now) throw new Error('[setup-redis] apt-get installed redis-server but no redis-server program was found on PATH.');
  // Debian's package starts a system service on port 6379; the tests never use it (each starts its own).
  return now;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(`[setup-redis] redis-server: ${ensureRedis()}`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
