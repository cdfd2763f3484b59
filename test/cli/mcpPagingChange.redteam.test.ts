// Red team (issue 22, sixth pass): a cursor of `skills/list` and `resources/list` stood for an offset into the list
// as it was when the page was given. A skill removed (or added) before that offset while a client paged shifted
// every later item: the skill just after the page's last one was never listed (or one was listed twice), though it
// was there the whole time, so a client that follows nextCursor (ours does: followPages) lost it. A cursor now names
// the last item it followed, and the next page starts after that item, wherever the list has moved it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { rawStdio, serverArgs, SkillsListResult, stdioClient, waitFor, type Json } from './mcpSupport';

const PagedSkills = SkillsListResult.extend({ nextCursor: z.string().optional() });

describe('MCP red team: a folder changed between pages loses no skill and repeats none', function () {
  this.timeout(120_000);
  let tmp: { dir: string; cleanup: () => void };
  let client: Client | undefined;
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => (tmp = makeTempDir('mcp-paging-change-')));
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    client = undefined;
    tmp.cleanup();
  });

  const names = (n: number) => Array.from({ length: n }, (_, i) => `s-${String(i).padStart(3, '0')}`);
  const skillsPage = async (c: Client, cursor?: string) => {
    const p = await c.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, PagedSkills);
    return { names: p.skills.map((s) => s.frontmatter.name as string), nextCursor: p.nextCursor };
  };

  // The same attacks on 2026-07-28 requests, through our encoder and through the SDK's Server
  // (AGENT_SKILLS_MCP_MODERN_SERVER=sdk, which passes params through to the same handlers).
  for (const engine of ['ours', 'sdk'] as const) {
    it(`2026-07-28 over stdio (${engine === 'sdk' ? 'the SDK engine' : 'our encoder'}): a removed skill loses no other; forged, foreign, huge and old cursors are -32602; a replayed cursor gives the same page`, async () => {
      const root = path.join(tmp.dir, 'skills');
      for (const n of names(150)) writeSkill(root, n);
      const raw = rawStdio(serverArgs(root, path.join(tmp.dir, 'state')), engine === 'sdk' ? { AGENT_SKILLS_MCP_MODERN_SERVER: 'sdk' } : {});
      try {
        const page = async (cursor?: unknown) => {
          const m = await raw.request('skills/list', cursor === undefined ? {} : { cursor: cursor as Json });
          const r = m.result as { skills?: { frontmatter: { name: string } }[]; nextCursor?: string } | undefined;
          return { names: r?.skills?.map((s) => s.frontmatter.name) ?? [], nextCursor: r?.nextCursor, error: m.error as { code: number; message: string } | undefined };
        };
        const first = await page();
        assert.equal(first.names.length, 100, JSON.stringify(first.error));
        const replay = [await page(first.nextCursor), await page(first.nextCursor)];
        assert.deepEqual(replay[0].names, replay[1].names, 'a cursor used twice gives the same page');
        const resources = await raw.request('resources/list', {});
        const foreign = (resources.result as { nextCursor?: string }).nextCursor;
        const offsetOnly = Buffer.from(JSON.stringify({ v: 1, l: 'skills', o: 100 })).toString('base64url');
        const forged = Buffer.from(JSON.stringify({ v: 2, l: 'skills', o: 2 ** 40, k: 's-000' })).toString('base64url');
        for (const bad of [offsetOnly, 'x'.repeat(5000), Buffer.from('{"v":2,"l":"skills","o":-1}').toString('base64url'), 42, foreign].filter((c) => c !== undefined)) {
          const r = await page(bad);
          assert.equal(r.error?.code, -32602, `cursor ${String(bad).slice(0, 40)}: ${JSON.stringify(r).slice(0, 300)}`);
        }
        // A well-formed cursor with a forged offset is read by its key: it starts after s-000, not past the end.
        assert.equal((await page(forged)).names[0], 's-001');
        fs.rmSync(path.join(root, 's-000'), { recursive: true });
        await waitFor('the server to see s-000 removed', async () => ((await page()).names.includes('s-000') ? undefined : true), 30_000);
        const second = await page(first.nextCursor);
        assert.equal(second.names[0], 's-100', `the page after s-099 starts at ${second.names[0]}`);
      } finally {
        await raw.stop();
      }
    });
  }

  for (const change of ['removed', 'added'] as const) {
    it(`skills/list and resources/list: a skill ${change} before the cursor between two pages`, async () => {
      const root = path.join(tmp.dir, 'skills');
      for (const n of names(150)) writeSkill(root, n);
      ({ client } = await stdioClient(serverArgs(root, path.join(tmp.dir, 'state'))));
      const c = client;
      const first = await skillsPage(c);
      const firstResources = await c.listResources();
      assert.equal(first.names.length, 100, `the first page holds ${first.names.length} skills`);
      assert.ok(first.nextCursor && firstResources.nextCursor === undefined, 'skills/list spans two pages, resources/list one');
      // Many files in one skill so resources/list spans pages too: written before the change, seen by the server first.
      const bulky = writeSkill(root, 'zz-bulky', { files: Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`data/f${String(i).padStart(4, '0')}.txt`, 'x\n'])) });
      const resourcesFirst = await waitFor('the bulky skill to be served', async () => {
        const p = await c.listResources();
        return p.nextCursor ? p : undefined;
      }, 30_000);
      const lastListed = resourcesFirst.resources.at(-1)!.uri;

      if (change === 'removed') fs.rmSync(path.join(root, 's-000'), { recursive: true });
      else writeSkill(root, 'a-early');
      await waitFor(`the server to see the skill ${change}`, async () => {
        const p = await skillsPage(c);
        return (change === 'removed' ? !p.names.includes('s-000') : p.names.includes('a-early')) ? true : undefined;
      }, 30_000);

      const second = await skillsPage(c, first.nextCursor);
      const all = [...first.names, ...second.names];
      assert.equal(new Set(all).size, all.length, `a skill was listed twice: ${all.filter((n, i) => all.indexOf(n) !== i).join(', ')}`);
      for (const n of names(150).slice(1)) assert.ok(all.includes(n), `${n}, there all along, was never listed (pages: ${first.names.at(-1)} then ${second.names[0]})`);

      const rest: string[] = [];
      let cursor = resourcesFirst.nextCursor;
      while (cursor) {
        const p = await c.listResources({ cursor });
        rest.push(...p.resources.map((r) => r.uri));
        cursor = p.nextCursor;
      }
      const uris = [...resourcesFirst.resources.map((r) => r.uri), ...rest];
      assert.equal(new Set(uris).size, uris.length, `a resource was listed twice (the first page ended at ${lastListed}, the next began at ${rest[0]})`);
      const bulkyFiles = uris.filter((u) => u.startsWith('skill://zz-bulky/'));
      assert.equal(bulkyFiles.length, 1201, `the bulky skill's files listed: ${bulkyFiles.length} of 1201 (the next page began at ${rest[0]})`);
      assert.ok(fs.existsSync(bulky));
    });
  }
});
