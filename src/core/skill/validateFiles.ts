import * as path from 'node:path';
import { extractBodyReferences } from './bodyReferences';
import type { SkillFilesHost } from './filesHost';
import { listSkillTextFiles } from './filesHost';
import type { Finding } from './findings';
import { scanSecrets } from './secretScan';
import { TextIndex } from './textIndex';
import type { ParsedSkillFile } from './types';

/** True when a relative path (with `/` or `\` separators) leaves the folder it is relative to. */
export function escapesFolder(rel: string): boolean {
  const norm = path.posix.normalize(rel.replace(/\\/g, '/'));
  return norm === '..' || norm.startsWith('../') || path.posix.isAbsolute(norm) || /^[A-Za-z]:/.test(norm);
}

/** Reference rules: each relative link or resource path in the body must exist inside the skill folder. */
export async function validateReferences(parsed: ParsedSkillFile, rootDir: string, host: SkillFilesHost, index: TextIndex, out: Finding[]): Promise<void> {
  const entries = (await host.readDir(rootDir)) ?? [];
  const folders = entries.filter((e) => e.kind === 'directory' && !e.name.startsWith('.')).map((e) => e.name);
  const refs = extractBodyReferences(parsed, { index, folders });
  const seen = new Map<string, Promise<string | undefined>>();
  // One finding per missing path (at its first mention), saying how many more mentions there are.
  const missing = new Map<string, { finding: Finding; more: number }>();
  for (const ref of refs) {
    const rel = ref.path.replace(/\\/g, '/');
    if (escapesFolder(rel)) {
      out.push({
        rule: 'reference-outside',
        message: `\`${ref.path}\` (${ref.kind}) points outside the skill folder; skills must be self-contained. Copy the file into the skill and refer to it by a path relative to the skill folder.`,
        range: ref.range,
        data: { path: ref.path, kind: ref.kind },
      });
      continue;
    }
    const norm = path.posix.normalize(rel);
    let kind = seen.get(norm);
    if (!kind) {
      kind = host.stat(path.join(rootDir, norm));
      seen.set(norm, kind);
    }
    if (!(await kind)) {
      const again = missing.get(norm);
      if (again) {
        again.more++;
        continue;
      }
      const finding: Finding = {
        rule: 'reference-missing',
        message: `\`${ref.path}\` (${ref.kind}) does not exist in the skill folder. Fix the path (relative to the folder that holds SKILL.md) or add the file.`,
        range: ref.range,
        data: { path: ref.path, kind: ref.kind },
      };
      missing.set(norm, { finding, more: 0 });
      out.push(finding);
    }
  }
  for (const { finding, more } of missing.values()) {
    if (more > 0) finding.message = finding.message.replace(' does not exist', ` does not exist (mentioned ${more} more time${more === 1 ? '' : 's'} below)`);
  }
}

/** Secret rule over SKILL.md and every other text file of the skill. */
export async function validateSecrets(parsed: ParsedSkillFile, skillFileName: string, rootDir: string, host: SkillFilesHost, index: TextIndex, out: Finding[]): Promise<void> {
  report(scanSecrets(parsed.text), index, undefined, out);
  const files = await listSkillTextFiles(host, rootDir);
  for (const rel of files) {
    if (rel === skillFileName) continue;
    const text = await host.readText(path.join(rootDir, rel));
    if (text === undefined) continue;
    const hits = scanSecrets(text);
    if (hits.length > 0) report(hits, new TextIndex(text), rel, out);
  }
}

function report(hits: ReturnType<typeof scanSecrets>, index: TextIndex, file: string | undefined, out: Finding[]): void {
  for (const h of hits) {
    const range = index.rangeOf(h.start, h.end);
    out.push({
      rule: 'secret-detected',
      message: `${file ?? 'SKILL.md'} line ${range.start.line + 1} appears to contain a ${h.kind} (${h.masked}). Skills must not contain credentials: remove it, rotate it, and read it from an environment variable.`,
      range,
      ...(file ? { file } : {}),
      data: { kind: h.kind, line: range.start.line + 1 },
    });
  }
}
