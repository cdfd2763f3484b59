// Red team (issue 22, fourth pass): settings read from an untrusted workspace. A cloned repository's
// .vscode/settings.json could add `"agentSkills.extraRoots": [".evil"]` (a string means user scope, and a relative
// path was resolved against the workspace), so the workspace's own skills were offered as the user's while the
// workspace was not trusted ("workspace skills are not offered"); `agentSkills.packs` could name any URL or absolute
// path (and /dev/zero), `pluginLocations` any folder. Now VS Code gives those settings only the user's values in
// Restricted Mode (package.json `restrictedConfigurations`, checked here against every open-valued setting), and a
// relative extra root is not read while the workspace is not trusted (src/extension/extraRoots.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveExtraRoots } from '../../src/extension/extraRoots';
import { schemas } from '../../src/extension/settingsSchema';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations?: string[] } };
  contributes: { configuration: { properties: Record<string, { type?: string | string[]; enum?: unknown[]; scope?: string }> } | { properties: Record<string, { type?: string | string[]; enum?: unknown[]; scope?: string }> }[] };
};

/** Settings whose values are open (paths, URLs, commands, objects) but name no place and run nothing, with why. */
const OPEN_BUT_HARMLESS: Record<string, string> = {
  'agentSkills.validation.rules': 'rule levels only: it changes what the linter reports, never what is read or run',
};
/** Closed-valued settings that still loosen a protection, so a workspace must not set them while untrusted. */
const PROTECTIONS = ['agentSkills.scripts.sandbox', 'agentSkills.restrictedTools', 'agentSkills.scripts.maxRunMB', 'agentSkills.scripts.maxHomeMB', 'agentSkills.scripts.timeoutSeconds'];

describe('untrusted workspace settings (red team)', () => {
  it('a relative extra root (user or plugin scope) is not read from an untrusted workspace; trusted, it is', () => {
    const entries = schemas.extraRoots.parse(['.evil', { path: 'vendor/skills', scope: 'plugin' }, { path: '.agents/x', scope: 'project' }, '~/more', '/abs/skills']);
    const untrusted = resolveExtraRoots(entries, { trusted: false, workspaceFolder: '/ws', home: '/home/u' });
    assert.deepEqual(untrusted.roots.map((r) => r.path), ['/home/u/more', '/abs/skills'], 'nothing under the untrusted workspace is read');
    assert.equal(untrusted.ignored.length, 3);
    for (const [i, p] of ['.evil', 'vendor/skills', '.agents/x'].entries()) assert.ok(untrusted.ignored[i].includes(`"${p}"`) && /not trusted/.test(untrusted.ignored[i]), untrusted.ignored[i]);
    const trusted = resolveExtraRoots(entries, { trusted: true, workspaceFolder: '/ws', home: '/home/u' });
    assert.deepEqual(trusted.roots, [
      { path: '/ws/.evil', scope: 'user' },
      { path: '/ws/vendor/skills', scope: 'extension' },
      { path: '/ws/.agents/x', scope: 'workspace' },
      { path: '/home/u/more', scope: 'user' },
      { path: '/abs/skills', scope: 'user' },
    ]);
    assert.deepEqual(resolveExtraRoots(schemas.extraRoots.parse(['rel']), { trusted: true, home: '/home/u' }).roots, [{ path: '/home/u/rel', scope: 'user' }], 'no workspace: relative to home');
  });

  it('every setting that names a place, a server or a command, or loosens a protection, takes no workspace value in Restricted Mode', () => {
    const restricted = new Set(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? []);
    const configs = Array.isArray(manifest.contributes.configuration) ? manifest.contributes.configuration : [manifest.contributes.configuration];
    const props = Object.assign({}, ...configs.map((c) => c.properties)) as Record<string, { type?: string | string[]; enum?: unknown[]; scope?: string }>;
    for (const key of restricted) assert.ok(key in props, `restrictedConfigurations names ${key}, which is no setting`);
    const userOnly = (p: { scope?: string }) => p.scope === 'application' || p.scope === 'machine';
    const open = Object.entries(props).filter(([, p]) => {
      const types = ([] as string[]).concat(p.type ?? []);
      return types.some((t) => t === 'array' || t === 'object') || (types.includes('string') && !p.enum);
    });
    const missing = open.filter(([k, p]) => !restricted.has(k) && !userOnly(p) && !(k in OPEN_BUT_HARMLESS) && !/\.trace\.server$/.test(k)).map(([k]) => k);
    assert.deepEqual(missing, [], 'open-valued settings a workspace could set while untrusted');
    for (const k of ['agentSkills.extraRoots', 'agentSkills.packs', 'agentSkills.pluginLocations', 'agentSkills.mcpServers', ...PROTECTIONS]) {
      assert.ok(restricted.has(k) || userOnly(props[k]), `${k} is taken from an untrusted workspace's settings`);
    }
  });
});
