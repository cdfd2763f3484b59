import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Metadata of one stored artifact version. */
export interface ArtifactInfo {
  name: string;
  version: number;
  mime_type: string;
  size_bytes: number;
  created: string;
  /** Absolute path of the stored bytes. */
  path: string;
}

/** A parsed `artifact://name[@version]` reference. */
export interface ArtifactRef {
  name: string;
  version?: number;
}

const REF = /^artifact:\/\/(.+?)(?:@(\d+))?$/;

/** Parses `artifact://name[@version]`; undefined when `ref` is not one. */
export function parseArtifactRef(ref: string): ArtifactRef | undefined {
  const m = REF.exec(ref);
  if (!m) return undefined;
  return m[2] === undefined ? { name: m[1] } : { name: m[1], version: Number(m[2]) };
}

/** Formats a reference that later runs and the `read` tool accept. */
export function formatArtifactRef(name: string, version: number): string {
  return `artifact://${name}@${version}`;
}

/**
 * Versioned files on disk: `<dir>/<encoded name>/<version>/data` plus `meta.json`. Versions count
 * from 1; a new version is claimed with an exclusive mkdir, so concurrent saves never share one.
 */
export class ArtifactStore {
  constructor(readonly dir: string) {}

  /**
   * The store of one scope (a session's own artifacts), or this one when `scope` is undefined: kept in
   * `<dir>/%sessions/<digest of the scope>`, a folder no artifact name encodes to (encodeURIComponent writes `%`
   * only before two hex digits), so no name read in this store reaches a scope's, nor one scope's another's.
   */
  scoped(scope: string | undefined): ArtifactStore {
    if (scope === undefined) return this;
    return new ArtifactStore(path.join(this.dir, '%sessions', createHash('sha256').update(scope).digest('hex').slice(0, 32)));
  }

  private nameDir(name: string): string {
    if (!name || name.includes('\0')) throw new Error(`artifact name "${name}" is empty or holds a NUL byte; give a plain name such as "report.txt".`);
    // encodeURIComponent keeps '.' and '..' as they are, which would name the store's own folder or its parent.
    const encoded = encodeURIComponent(name).replace(/^\.\.?$/, (dots) => dots.replace(/\./g, '%2E'));
    return path.join(this.dir, encoded);
  }

  /** Versions of `name`, ascending (empty when none). */
  versions(name: string): number[] {
    try {
      return fs
        .readdirSync(this.nameDir(name))
        .filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(this.nameDir(name), v, 'meta.json')))
        .map(Number)
        .sort((a, b) => a - b);
    } catch {
      return [];
    }
  }

  /** Copies `source` (a file path) in as the next version of `name`. */
  save(name: string, source: string, mimeType: string): ArtifactInfo {
    const base = this.nameDir(name);
    fs.mkdirSync(base, { recursive: true });
    const existing = fs.readdirSync(base).filter((v) => /^\d+$/.test(v)).map(Number);
    let version = existing.length ? Math.max(...existing) + 1 : 1;
    for (;;) {
      try {
        fs.mkdirSync(path.join(base, String(version)));
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        version++;
      }
    }
    const vdir = path.join(base, String(version));
    const data = path.join(vdir, 'data');
    fs.copyFileSync(source, data);
    // The copy keeps the source's mode: never a set-user-id, set-group-id or sticky bit a script gave its output.
    fs.chmodSync(data, fs.statSync(data).mode & 0o777);
    const info: ArtifactInfo = { name, version, mime_type: mimeType, size_bytes: fs.statSync(data).size, created: new Date().toISOString(), path: data };
    // meta.json last: a version without it is incomplete and invisible.
    const { path: _omit, ...meta } = info;
    // Temp file + rename: a crash mid-write never leaves a torn meta.json that would make the version unreadable.
    const tmp = path.join(vdir, `.meta.json.tmp-${process.pid}`);
    fs.writeFileSync(tmp, JSON.stringify(meta));
    fs.renameSync(tmp, path.join(vdir, 'meta.json'));
    return info;
  }

  /** Metadata of `name` at `version` (default the latest), or undefined. */
  stat(ref: ArtifactRef): ArtifactInfo | undefined {
    const versions = this.versions(ref.name);
    const version = ref.version ?? versions[versions.length - 1];
    if (version === undefined || !versions.includes(version)) return undefined;
    const vdir = path.join(this.nameDir(ref.name), String(version));
    const meta = JSON.parse(fs.readFileSync(path.join(vdir, 'meta.json'), 'utf8')) as Omit<ArtifactInfo, 'path'>;
    return { ...meta, path: path.join(vdir, 'data') };
  }
}

/**
 * Reads an artifact by reference (`artifact://name[@version]`, latest when no version) from the store
 * in `artifactsDir` (the runner's `<stateDir>/artifacts`). For the `read` tool.
 */
export function readArtifact(artifactsDir: string, ref: string): { info: ArtifactInfo; data: Buffer } {
  const parsed = parseArtifactRef(ref);
  if (!parsed) throw new Error(`"${ref}" is not an artifact reference; write it as artifact://name or artifact://name@version.`);
  const info = new ArtifactStore(artifactsDir).stat(parsed);
  if (!info) {
    const versions = new ArtifactStore(artifactsDir).versions(parsed.name);
    throw new Error(
      versions.length
        ? `artifact "${parsed.name}" has no version ${parsed.version}; versions are ${versions.join(', ')}.`
        : `no artifact named "${parsed.name}"; save one with run_script outputs.save first.`,
    );
  }
  return { info, data: fs.readFileSync(info.path) };
}
