// `skill://<skill-name>/<file-path>` URIs of the MCP Skills Extension (io.modelcontextprotocol/skills).
// Parsed by hand, never with `new URL`: WHATWG URL parsing resolves `..` segments and percent-decodes
// before we could look, so `skill://x/../../etc/passwd` would arrive as `skill://x/etc/passwd` and an
// escape attempt would look like an ordinary miss. Here every raw segment is checked, then decoded and
// checked again, and a refusal says which rule the URI broke.

/** The scheme prefix of every skill resource. */
export const SKILL_SCHEME = 'skill://';

/** Longest URI we look at; anything longer is refused before it is split. */
const MAX_URI_CHARS = 4096;
const MAX_SEGMENTS = 64;

/** A skill URI taken apart: the skill name and the file path inside it (empty for the skill's root). */
export interface SkillUri {
  skill: string;
  /** `/`-joined decoded segments, relative to the skill folder; `''` names the skill's root directory. */
  path: string;
}

/** Why a URI is not a skill resource we serve; `message` names the URI, the rule and what to send instead. */
export class SkillUriError extends Error {
  constructor(
    readonly uri: string,
    readonly reason: 'scheme' | 'too-long' | 'empty-segment' | 'dot-segment' | 'bad-escape' | 'separator' | 'control',
    detail: string,
  ) {
    super(`Resource ${JSON.stringify(uri.length > 200 ? `${uri.slice(0, 200)}…` : uri)} is not a skill file URI: ${detail} Use skill://<skill-name>/<path> with a path inside the skill, e.g. skill://pdf/SKILL.md.`);
  }
}

function decodeSegment(uri: string, raw: string): string {
  let s: string;
  try {
    s = decodeURIComponent(raw);
  } catch {
    throw new SkillUriError(uri, 'bad-escape', `the segment "${raw}" has a malformed percent-escape.`);
  }
  // Decoded separators would let one segment smuggle several (`..%2f..`), so they are refused outright.
  if (s.includes('/') || s.includes('\\')) throw new SkillUriError(uri, 'separator', `the segment "${raw}" decodes to a path separator.`);
  if (s === '.' || s === '..') throw new SkillUriError(uri, 'dot-segment', `"${raw}" is a dot segment; paths may not leave or name their folder.`);
  if (/[\u0000-\u001f\u007f]/.test(s)) throw new SkillUriError(uri, 'control', `the segment "${raw}" holds a control character.`);
  return s;
}

/** Parses a skill URI strictly; throws {@link SkillUriError} for anything that is not a plain path inside one skill. */
export function parseSkillUri(uri: string): SkillUri {
  if (uri.length > MAX_URI_CHARS) throw new SkillUriError(uri, 'too-long', `it is longer than ${MAX_URI_CHARS} characters.`);
  if (!uri.startsWith(SKILL_SCHEME)) throw new SkillUriError(uri, 'scheme', 'it does not start with skill://.');
  const rest = uri.slice(SKILL_SCHEME.length);
  if (/[?#]/.test(rest)) throw new SkillUriError(uri, 'control', 'it carries a query or fragment.');
  const raw = rest.split('/');
  if (raw.length > MAX_SEGMENTS) throw new SkillUriError(uri, 'too-long', `it has more than ${MAX_SEGMENTS} segments.`);
  for (const r of raw) {
    if (r === '') throw new SkillUriError(uri, 'empty-segment', 'it has an empty segment (a doubled or trailing "/").');
    if (r === '.' || r === '..') throw new SkillUriError(uri, 'dot-segment', `"${r}" is a dot segment; paths may not leave or name their folder.`);
  }
  const [skill, ...parts] = raw.map((r) => decodeSegment(uri, r));
  return { skill, path: parts.join('/') };
}

/** The URI of one file of a skill (each segment percent-encoded), or of the skill's root when `relPath` is empty. */
export function skillFileUri(skill: string, relPath = ''): string {
  const segs = [skill, ...(relPath ? relPath.split('/') : [])].map(encodeURIComponent);
  return `${SKILL_SCHEME}${segs.join('/')}`;
}
