// The list cursor (src/cli/mcp/pagination.ts) resumes after the item it names, whatever moved in the list since:
// the key itself when it fits in a cursor, its digest when it does not. The end-to-end attack is
// mcpPagingChange.redteam.test.ts; these are the cases a folder of skills cannot easily make (a key too long to carry).
import * as assert from 'node:assert/strict';
import { pageOf } from '../../src/cli/mcp/pagination';

const keyOf = (s: string) => s;
const rule = { maxItems: 3, keyOf };
const all = (n: number, width = 3) => Array.from({ length: n }, (_, i) => String(i).padStart(width, '0'));

describe('list cursors resume after the item they name', () => {
  it('an item removed or added before the cursor: no item lost, none twice', () => {
    const before = all(9);
    const first = pageOf('skills', before, undefined, 'skills/list', rule);
    assert.deepEqual(first.items, ['000', '001', '002']);
    assert.deepEqual(pageOf('skills', before.slice(1), first.nextCursor, 'skills/list', rule).items, ['003', '004', '005']);
    assert.deepEqual(pageOf('skills', ['-01', ...before], first.nextCursor, 'skills/list', rule).items, ['003', '004', '005']);
    // The last item given is itself removed: the page starts at the first item after where it was.
    assert.deepEqual(pageOf('skills', before.filter((s) => s !== '002'), first.nextCursor, 'skills/list', rule).items, ['003', '004', '005']);
  });

  it('a key too long to carry is named by its digest and found where it moved; a cursor stays within 4096 characters', () => {
    const long = all(9, 4000);
    const first = pageOf('resources', long, undefined, 'resources/list', rule);
    assert.ok(first.nextCursor && first.nextCursor.length < 200, `cursor of ${first.nextCursor?.length} characters`);
    assert.deepEqual(pageOf('resources', long.slice(1), first.nextCursor, 'resources/list', rule).items, long.slice(3, 6));
    assert.deepEqual(pageOf('resources', ['-'.repeat(4000), ...long], first.nextCursor, 'resources/list', rule).items, long.slice(3, 6));
  });

  it('a cursor of the earlier format (an offset alone) or with a key of the wrong type is refused with -32602', () => {
    const old = Buffer.from(JSON.stringify({ v: 1, l: 'skills', o: 3 })).toString('base64url');
    const wrong = Buffer.from(JSON.stringify({ v: 2, l: 'skills', o: 3, k: 7 })).toString('base64url');
    const shortDigest = Buffer.from(JSON.stringify({ v: 2, l: 'skills', o: 3, h: 'abc' })).toString('base64url');
    for (const c of [old, wrong, shortDigest]) assert.throws(() => pageOf('skills', all(9), c, 'skills/list', rule), (e: { code?: number }) => e.code === -32602, c);
  });
});
