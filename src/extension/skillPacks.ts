// Skill packs from the `agentSkills.packs` setting: each archive (path or URL) mounted by the core's pack source into
// the extension's storage as a `pack` root. A pack that fails is reported (output channel and a warning naming the
// pack, the problem and the fix) and left out; the other packs and every other skill keep working.
import * as vscode from 'vscode';
import { packNameOf } from '../core/catalog/packMounts';
import type { PackMountHook } from '../core/sourceReaders';
import type { PackSpec } from '../core/catalog/catalogTypes';
import { PackError } from '../core/packs';
import { isPackUrl } from './packSpecs';
import { SECTION } from './settings';

/** What to do about a pack that failed, by error code. */
function fixFor(e: unknown, spec: PackSpec): string {
  if (e instanceof PackError) {
    switch (e.code) {
      case 'DIGEST_MISMATCH':
        return `If the new archive is the one you want, update "sha256" of this pack in ${SECTION}.packs; otherwise restore the original archive.`;
      case 'DOWNLOAD_FAILED':
        return 'Check the URL and your network connection, then run "Reload Window" or edit the setting again.';
      case 'UNSUPPORTED_FORMAT':
      case 'CORRUPT_ARCHIVE':
        return 'Point the setting at a valid .zip, .tar.gz, .tgz or .tar archive.';
      default:
        return 'The archive is unsafe or too large to extract; rebuild it without links, absolute or ../ paths, or remove it from the setting.';
    }
  }
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `Check the path ${spec.source} (absolute, ~/ or relative to the first workspace folder) in ${SECTION}.packs.`;
  return `Check the archive and the ${SECTION}.packs setting.`;
}

/**
 * How this window mounts one pack (the core's pack source calls it): URLs with a progress notification; a failure
 * is logged and shown, and the pack left out (never thrown), so the other packs and every other skill keep working.
 */
export function reportedPackMount(log: vscode.LogOutputChannel): PackMountHook {
  return async (spec, mount) => {
    const name = spec.name ?? packNameOf(spec.source);
    try {
      const m = isPackUrl(spec.source) ? await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Installing skill pack ${name}…` }, mount) : await mount();
      log.info(`Skill pack "${m.name}" from ${spec.source}: ${m.installed.skills.length} skill(s), sha256 ${m.installed.sha256.slice(0, 12)}${m.installed.cached.extraction ? ' (cached)' : ''}.`);
      return m;
    } catch (e) {
      const problem = e instanceof Error ? e.message : String(e);
      const text = `Skill pack "${name}" (${spec.source}) was not installed: ${problem} ${fixFor(e, spec)}`;
      log.error(text);
      void vscode.window.showWarningMessage(text);
      return undefined;
    }
  };
}
