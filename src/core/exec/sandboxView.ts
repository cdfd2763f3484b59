import * as fs from 'node:fs';

/**
 * What of the host system a sandboxed script sees: programs and libraries, and the few files of `/etc`
 * interpreters and TLS need. Nothing else of the host (no /home, /root, /run, /var, /opt, /mnt, host /tmp).
 */
export interface SystemView {
  /** Host folders bound read-only at the same path. */
  binds: string[];
  /** Top-level symlinks of a merged /usr (`/bin -> usr/bin`), recreated as they are. */
  symlinks: { path: string; target: string }[];
}

/** Top-level folders that hold programs and libraries. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * Entries of `/etc` that programs read to start and to work offline: the loader cache, alternatives
 * (Debian's /usr/bin/python -> /etc/alternatives/...), certificates (ssl, pki, ca-certificates), name
 * service and locale files, time zone, MIME types, fonts, and interpreters' own configuration.
 * `passwd` and `group` are not bound: each run gets generated ones that name only its own user.
 * `resolv.conf` is left out: there is no network inside.
 */
const ETC_ENTRIES = [
  'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'alternatives', 'ssl', 'pki', 'ca-certificates', 'ca-certificates.conf', 'crypto-policies',
  'nsswitch.conf', 'hosts', 'host.conf', 'gai.conf', 'protocols', 'services', 'localtime', 'timezone', 'locale.alias', 'locale.conf',
  'default', 'mime.types', 'fonts', 'os-release', 'lsb-release', 'debian_version', 'magic', 'magic.mime', 'perl', 'R',
];
/** `/etc` entries taken by prefix (versioned folders: python3.11, java-17-openjdk, ImageMagick-6). */
const ETC_PREFIXES = ['python', 'java', 'ImageMagick'];

let systemView: SystemView | undefined;

/** The host's system view, read once per process (the layout of / does not change under a running editor). */
export function hostSystemView(): SystemView {
  if (systemView) return systemView;
  const binds: string[] = [];
  const symlinks: SystemView['symlinks'] = [];
  for (const dir of SYSTEM_DIRS) {
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isSymbolicLink()) symlinks.push({ path: dir, target: fs.readlinkSync(dir) });
    else if (st.isDirectory()) binds.push(dir);
  }
  let etc: string[] = [];
  try {
    etc = fs.readdirSync('/etc');
  } catch {
    // No /etc (not Linux): nothing to bind.
  }
  for (const name of etc.sort()) if (ETC_ENTRIES.includes(name) || ETC_PREFIXES.some((p) => name.startsWith(p))) binds.push(`/etc/${name}`);
  systemView = { binds, symlinks };
  return systemView;
}

/** The user a script runs as inside the sandbox: the runner's own uid, or `nobody` (65534) for root. */
export interface SandboxUser {
  uid: number;
  gid: number;
  /**
   * The host account the sandbox program is started as, when it is not the runner's own: a runner started as root
   * starts it as `nobody`. A user namespace maps its inside uid to the account that made it, and one made by root
   * maps to root, the owner of every root-only file on the host; made by `nobody`, the kernel refuses the script
   * every file only root may read, wherever it lies.
   */
  host?: { uid: number; gid: number };
}

/** The unprivileged account a root runner's sandbox runs as (inside and on the host). */
export const ROOT_SANDBOX_ID = 65534;

/** The sandbox user for a runner running as `hostUid`/`hostGid` (root drops to an unprivileged account). */
export function sandboxUser(hostUid: number, hostGid: number): SandboxUser {
  if (hostUid !== 0) return { uid: hostUid, gid: hostGid };
  const id = { uid: ROOT_SANDBOX_ID, gid: ROOT_SANDBOX_ID };
  return { ...id, host: id };
}

/** `/etc/passwd` and `/etc/group` inside the sandbox: root and the script's own user, with its HOME. */
export function identityFiles(user: SandboxUser, home: string): { passwd: string; group: string } {
  const passwd = [`root:x:0:0:root:/root:/usr/sbin/nologin`, `skill:x:${user.uid}:${user.gid}:Agent Skills script:${home}:/bin/sh`];
  const group = [`root:x:0:`, `skill:x:${user.gid}:`];
  if (user.uid === 65534) passwd[1] = `nobody:x:65534:65534:Agent Skills script:${home}:/bin/sh`;
  if (user.gid === 65534) group[1] = 'nogroup:x:65534:';
  return { passwd: `${passwd.join('\n')}\n`, group: `${group.join('\n')}\n` };
}
