import { sandboxedCommand } from '../launcher';
import type { SandboxBackend, SandboxLaunch } from './backend';
import { mountPlan } from './mountPlan';
import { hostSystemView } from '../sandboxView';

/**
 * The macOS sandbox (`sandbox-exec -p <profile>`, Seatbelt's SBPL) for one run: the counterpart of the
 * bubblewrap view on Linux. Deny by default; allow running programs, reading the system (/usr, /bin,
 * /sbin, /System, /Library's frameworks, a few /etc files), the skill's snapshot and interpreter prefixes,
 * and reading and writing the run's workspace, the skill's HOME and dependency folders; the staged skill
 * stays read-only (SBPL: a later rule wins over an earlier one). No network rule, so no network.
 * Metadata (stat) of any path stays readable: programs resolve their own paths through parent folders.
 * Generated and tested on every platform. The backend below reports itself unverified (so macOS runs are
 * not sandboxed) until this profile has been run on a Mac by the suite.
 */
export interface SeatbeltPlan {
  workspace: string;
  /** The staged skills folder inside the workspace: read-only. */
  skillsDir: string;
  /** Read-only: the snapshot, interpreter prefixes, linked inputs. */
  readOnly: readonly string[];
  /** Read-write besides the workspace: HOME and dependency folders. */
  writable: readonly string[];
}

/** System paths any program needs to start on macOS. */
const SYSTEM_READ = ['/usr', '/bin', '/sbin', '/System', '/Library/Frameworks', '/Library/Apple', '/private/var/db/timezone', '/private/var/db/dyld', '/Library/Preferences/Logging'];
const ETC_READ = ['/private/etc/passwd', '/private/etc/group', '/private/etc/hosts', '/private/etc/ssl', '/private/etc/localtime', '/private/etc/services', '/private/etc/protocols'];
const DEVICES_RW = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper'];
const DEVICES_READ = ['/dev/random', '/dev/urandom'];

/**
 * An SBPL string literal. Refuses what SBPL cannot carry safely (NUL, newlines): such a path would
 * otherwise end the rule early and let the rest be read as rules.
 */
export function sbplString(value: string): string {
  if (/[\0\n\r]/.test(value)) throw new Error(`path ${JSON.stringify(value)} holds a NUL or line break, which a sandbox profile cannot carry; rename it.`);
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const subpaths = (paths: readonly string[]) => paths.map((p) => `(subpath ${sbplString(p)})`).join(' ');
const literals = (paths: readonly string[]) => paths.map((p) => `(literal ${sbplString(p)})`).join(' ');

/** The profile text for one run. */
export function seatbeltProfile(plan: SeatbeltPlan): string {
  const rw = [plan.workspace, ...plan.writable];
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow file-read-metadata)',
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger"))',
    `(allow file-read* ${subpaths(SYSTEM_READ)} ${subpaths(ETC_READ)} ${literals(DEVICES_READ)})`,
    `(allow file-read* file-write* ${literals(DEVICES_RW)})`,
    '(allow file-ioctl (literal "/dev/null") (literal "/dev/tty"))',
  ];
  if (plan.readOnly.length) lines.push(`(allow file-read* ${subpaths(plan.readOnly)})`);
  lines.push(`(allow file-read* file-write* ${subpaths(rw)})`);
  // Last, so it wins over the workspace rule above.
  lines.push(`(deny file-write* ${subpaths([plan.skillsDir])})`);
  return `${lines.join('\n')}\n`;
}

/** Why the macOS backend is not used yet. */
export const SEATBELT_UNVERIFIED = 'the macOS sandbox backend (sandbox-exec) is unverified: its profile has not been run on a Mac yet, so it is not used';

/** macOS `sandbox-exec` with {@link seatbeltProfile}: reports itself unavailable (unverified) until tested on a Mac. */
export const seatbelt: SandboxBackend = {
  id: 'seatbelt',
  platforms: ['darwin'],
  guarantees: 'no network; reads only system folders, its run folder, a read-only copy of the skill and the skill\'s own HOME; writes only its run folder and HOME',
  whenUnavailable: 'Set agentSkills.scripts.sandbox to "auto" to run scripts without a sandbox on macOS until this backend is verified.',
  probe: () => Promise.resolve({ available: false, backend: 'seatbelt', reason: SEATBELT_UNVERIFIED }),
  launch(spec: SandboxLaunch) {
    // The same plan as every backend (trusted interpreters only); the identity files are not used here.
    const plan = mountPlan(spec.run, [spec.argv[0], spec.sh], { view: hostSystemView(), stateDir: spec.stateDir, forbidden: spec.skillRoot ? [spec.skillRoot] : [] }, { user: spec.user, cwd: spec.cwd, env: spec.env });
    const profile = seatbeltProfile({ workspace: plan.workspace, skillsDir: plan.skillsDir, readOnly: plan.readOnly, writable: plan.writable });
    return { program: '/usr/bin/sandbox-exec', args: ['-p', profile, ...sandboxedCommand(spec.sh, spec.argv, spec.maxFileBytes, spec.processLimit)], env: { ...spec.env } };
  },
};
