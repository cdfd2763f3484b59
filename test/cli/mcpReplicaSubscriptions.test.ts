// Issue 26: a 2025-11-25 session's resource subscriptions with replicas sharing a state store (`--state-store`).
// The session's GET notification stream is held by the replica that initialized it (a); a `resources/subscribe`
// answered by the other replica (b) goes into the shared store, so a's stream carries the update when the skill
// changes on disk. Real redis-server, two real `dist/cli.js mcp --http` processes, the SDK client.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { decodeStored, handleKey } from '../../src/core/runtime/sessionStateStore';
import { httpClient, postJson, startReplicas, waitFor, replicaSuite } from './mcpSupport';

const ALPHA = 'skill://alpha/SKILL.md';
const BETA = 'skill://beta/SKILL.md';

describe('MCP 2025-11-25 resource subscriptions across replicas sharing Redis', function () {
  this.timeout(120_000);
  const fx = replicaSuite('mcp-replica-subs-');

  it('a subscription taken on replica b reaches the stream on replica a; unsubscribe on b stops it; the session end removes them', async () => {
    const skills = fx.skills;
    const redis = await fx.startRedis();
    const [a, b] = await startReplicas(skills, fx.dir, redis.url, fx.stops);
    const c = await httpClient(a.url);
    const raw = new Redis(redis.url);
    try {
      const updated: string[] = [];
      let listChanged = 0;
      c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
      c.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
      const sid = c.transport.sessionId as string;
      const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
      const onB = (id: number, method: string, uri: string) => postJson(b.url, { jsonrpc: '2.0', id, method, params: { uri } }, headers);
      const edit = (skill: string, text: string) => fs.appendFileSync(path.join(skills, skill, 'SKILL.md'), `\n${text}\n`);
      // The client's GET stream on a is open once a change reaches it (the SDK opens it after initialize): gamma is
      // edited until a list_changed arrives, each edit a new change.
      let n = 0;
      await waitFor('the session stream on replica a', async () => {
        if (listChanged > 0) return true;
        edit('gamma', `warm-up ${n++}`);
        await new Promise((r) => setTimeout(r, 400));
        return listChanged > 0 ? true : undefined;
      }, 30_000);
      assert.equal(updated.length, 0, 'nothing subscribed yet');

      const sub = await onB(1, 'resources/subscribe', ALPHA);
      assert.equal(sub.status, 200, JSON.stringify(sub.json));
      assert.deepEqual(sub.json?.result, {}, JSON.stringify(sub.json));
      // The subscription is in the session's stored value, not in replica b's memory.
      const key = handleKey(`mcp-session-id:${sid}`);
      const stored = decodeStored('test', key, (await raw.getBuffer(`agent-skills:session:${key}`)) ?? Buffer.alloc(0));
      assert.deepEqual(stored.subscriptions, [ALPHA]);

      edit('alpha', 'first change');
      await waitFor(`notifications/resources/updated for ${ALPHA} on replica a's stream`, () => (updated.includes(ALPHA) ? true : undefined), 30_000);

      // Unsubscribed on b (and beta subscribed there): the next alpha change brings no update, beta's does.
      assert.deepEqual((await onB(2, 'resources/unsubscribe', ALPHA)).json?.result, {});
      assert.deepEqual((await onB(3, 'resources/subscribe', BETA)).json?.result, {});
      const seen = updated.length;
      const before = listChanged;
      edit('alpha', 'second change');
      await waitFor('the list_changed of the second alpha change', () => (listChanged > before ? true : undefined), 30_000);
      edit('beta', 'a change');
      await waitFor(`notifications/resources/updated for ${BETA}`, () => (updated.includes(BETA) ? true : undefined), 30_000);
      assert.deepEqual(updated.slice(seen), [BETA], 'after the unsubscribe, only beta is reported');

      // The session ends (DELETE): its subscriptions go with its stored value.
      await c.transport.terminateSession();
      assert.equal(await raw.exists(`agent-skills:session:${key}`), 0);
      const gone = await onB(4, 'resources/subscribe', ALPHA);
      assert.equal(gone.status, 404, JSON.stringify(gone.json));
    } finally {
      raw.disconnect();
      await c.client.close().catch(() => undefined);
    }
  });
});
