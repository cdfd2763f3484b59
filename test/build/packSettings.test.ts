// agentSkills.packs as the extension reads it: the zod schema (strings and { source, name, sha256 }) and the
// path resolution, where an untrusted workspace gets no workspace-relative pack.
import * as assert from 'node:assert/strict';
import { resolvePackSpecs } from '../../src/extension/packSpecs';
import { schemas } from '../../src/extension/settingsSchema';

describe('agentSkills.packs setting', () => {
  it('accepts paths, URLs and objects; refuses a bad sha256, a bad name and unknown keys', () => {
    const digest = 'AB'.repeat(32);
    assert.deepEqual(schemas.packs.parse(['a.zip', { source: 'https://x.test/p.tar.gz', name: 'team', sha256: digest }]), [
      { source: 'a.zip' },
      { source: 'https://x.test/p.tar.gz', name: 'team', sha256: digest.toLowerCase() },
    ]);
    assert.deepEqual(schemas.packs.parse(undefined), []);
    assert.equal(schemas.packs.safeParse([{ source: 'a.zip', sha256: 'abc' }]).success, false);
    assert.equal(schemas.packs.safeParse([{ source: 'a.zip', name: 'Team Pack' }]).success, false);
    assert.equal(schemas.packs.safeParse([{ source: 'a.zip', url: 'x' }]).success, false);
    assert.equal(schemas.packs.safeParse(['']).success, false);
    // redirectHosts: the hosts a pack URL's redirect may go to (issue 22.7: none unless allowed).
    assert.deepEqual(schemas.packs.parse([{ source: 'https://x.test/p.zip', redirectHosts: ['objects.example.com', 'cdn.example.com:8443', '[::1]:8080', '127.0.0.2'] }]), [
      { source: 'https://x.test/p.zip', redirectHosts: ['objects.example.com', 'cdn.example.com:8443', '[::1]:8080', '127.0.0.2'] },
    ]);
    for (const bad of ['https://cdn.example.com', 'cdn.example.com/path', '', 'a b', '*.example.com']) {
      const r = schemas.packs.safeParse([{ source: 'https://x.test/p.zip', redirectHosts: [bad] }]);
      assert.equal(r.success, false, `redirectHosts ${JSON.stringify(bad)} accepted`);
      assert.match(r.error!.issues[0].message, /^redirectHosts: /);
    }
    assert.equal(schemas.packs.safeParse([{ source: 'https://x.test/p.zip', redirectHosts: Array.from({ length: 17 }, (_, i) => `h${i}.test`) }]).success, false);
  });

  it('resolves ~/ and workspace-relative paths, keeps the name from what the user wrote', () => {
    const r = resolvePackSpecs([{ source: '~/packs/Team Skills.zip' }, { source: 'vendor/tools.tar.gz' }, { source: '/abs/x.tgz', name: 'mine' }, { source: 'https://h.test/d/web.zip' }], {
      trusted: true,
      workspaceFolder: '/ws',
      home: '/home/u',
    });
    assert.deepEqual(r.ignored, []);
    assert.deepEqual(r.specs, [
      { source: '/home/u/packs/Team Skills.zip', name: 'team-skills' },
      { source: '/ws/vendor/tools.tar.gz', name: 'tools' },
      { source: '/abs/x.tgz', name: 'mine' },
      { source: 'https://h.test/d/web.zip', name: 'web' },
    ]);
  });

  it('ignores workspace-relative packs in an untrusted workspace, saying why and what to do', () => {
    const r = resolvePackSpecs([{ source: 'vendor/tools.tar.gz' }, { source: '/abs/x.tgz' }], { trusted: false, workspaceFolder: '/ws', home: '/home/u' });
    assert.deepEqual(r.specs, [{ source: '/abs/x.tgz', name: 'x' }]);
    assert.equal(r.ignored.length, 1);
    assert.match(r.ignored[0], /"tools".*not trusted.*absolute path/);
  });
});
