// The bench's "fetch failed" under load, reproduced on purpose (issue 26): 50 SDK 1.x HTTP clients (fetch, so
// undici's keep-alive pool) in a process whose event loop stalls 3.5 s every 6 s, as a loaded machine makes it,
// each reading a resource 40 times with pauses, so some connections sit idle across a stall. undici stops reusing
// an idle connection 2 s before the advertised Keep-Alive time, by a timer the stall delays; a server that closes
// it 1 s after that time (Node's default) resets the request sent on it (ECONNRESET, "other side closed").
// Prints the errors and their causes. Run: node --import tsx test/bench/httpStalledClient.ts [path/to/cli.js]
// (default dist/cli.js; give an older build to compare). The fix: src/cli/mcp/idleConnections.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI, serverArgs, startHttpProcess, writeFixtureSkills } from '../cli/mcpSupport';
async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lag-'));
  const skills = path.join(dir, 'skills');
  writeFixtureSkills(skills);
  const args = serverArgs(skills, path.join(dir, 'st'), ['--http', '127.0.0.1:0']);
  args[0] = process.argv[2] ?? CLI;
  const server = await startHttpProcess(args);
  let errors = 0; const causes = new Map<string, number>();
  const stall = setInterval(() => { const end = Date.now() + 3500; while (Date.now() < end); }, 6000);
  const t0 = Date.now();
  await Promise.all(Array.from({ length: 50 }, async (_, k) => {
    const c = new Client({ name: 'lag', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(server.url));
    for (let i = 0; i < 40; i++) {
      try { await c.readResource({ uri: 'skill://alpha/SKILL.md' }); } catch (e) {
        errors++; const cause = (e as { cause?: { code?: string; message?: string } }).cause; const key = `${(e as Error).message} (${cause?.code ?? ''} ${cause?.message ?? ''})`; causes.set(key, (causes.get(key) ?? 0) + 1);
      }
      // clients spread out, so some connections sit idle across a stall
      await new Promise((r) => setTimeout(r, (k % 7) * 300));
    }
    await c.close();
  }));
  clearInterval(stall);
  console.log(`${args[0]}: ${errors} errors in 2,000 calls (${(Date.now() - t0) / 1000} s)`, [...causes]);
  await server.stop();
  process.exitCode = errors === 0 ? 0 : 1;
  fs.rmSync(dir, { recursive: true, force: true });
}
main().catch((e) => { console.error(e); process.exit(1); });
