// Issue 22 measurement (not part of npm run bench): CPU to page through resources/list of one skill with N files,
// over a stub catalog holding the manifest in memory (the cost is the server's paging, not the disk).
//   node --import tsx test/bench/resourcesListCost.ts [N=20000]

import { SkillResources } from '../../src/cli/mcp/skillResources';
const N = Number(process.argv[2] ?? 20000);
const e: any = { id: 'x', name: 'big', description: 'd', versionRef: 'v', skillDir: '/tmp/big', status: 'ok', properties: {} };
const files = Array.from({ length: N }, (_, i) => ({ path: `references/dir${i % 50}/file-${i}.md`, size: 10, ref: 'sha256:' + 'a'.repeat(64) }));
const catalog: any = { entries: () => [e], files: async () => files };
const r = new SkillResources(catalog);
(async () => {
  const t = process.cpuUsage(); let c: any; let pages = 0;
  do { const p = await r.listResources(c); c = p.nextCursor; pages++; } while (c);
  const u = process.cpuUsage(t); console.log(`${N} files: ${pages} pages, ${((u.user + u.system) / 1000).toFixed(0)} ms CPU`);
})();
