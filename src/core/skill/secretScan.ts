/** Finds apparent credentials in text, skipping obvious placeholders (`sk-...`, `your-api-key`, `<token>`). */

/** One apparent secret: what kind, and where in the text. */
export interface SecretHit {
  kind: string;
  start: number;
  end: number;
  /** The secret with its middle masked, safe to print. */
  masked: string;
}

interface SecretPattern {
  kind: string;
  /** A cheap literal that every match contains, checked with `includes` before the regex runs. */
  hint: string | RegExp;
  re: RegExp;
  /** Capture group holding the secret value (default the whole match). */
  group?: number;
}

const PATTERNS: readonly SecretPattern[] = [
  { kind: 'private key', hint: 'PRIVATE KEY-----', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/g },
  { kind: 'API key (sk-…)', hint: 'sk-', re: /(?<![\w-])sk-(?:[A-Za-z0-9]+-){0,3}[A-Za-z0-9_-]{20,}/g },
  { kind: 'AWS access key id', hint: /A[KS]IA/, re: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  { kind: 'GitHub token', hint: /gh[pousr]_|github_pat_/, re: /(?<![\w])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { kind: 'Slack token', hint: 'xox', re: /(?<![\w])xox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'Google API key', hint: 'AIza', re: /(?<![\w])AIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  {
    kind: 'password or secret assignment',
    hint: /pass|pwd|secret|token|api[_-]?key/i,
    re: /\b(?:password|passwd|pwd|secret|client_secret|api[_-]?key|auth[_-]?token|access[_-]?token)\b["']?\s*[:=]\s*(["'])([^"'\s]{8,})\1/gi,
    group: 2,
  },
];

const PLACEHOLDER_WORDS = /your|example|sample|placeholder|changeme|change-me|dummy|fake|redacted|replace|insert|test|xxxx|\*\*\*|\.\.\.|…|<|>|\$\{|\{\{|%\(|password|secret|token|here/i;

/** Scans one text. Cheap when there is nothing to find: each pattern runs only if its literal hint occurs. */
export function scanSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const p of PATTERNS) {
    if (typeof p.hint === 'string' ? !text.includes(p.hint) : !p.hint.test(text)) continue;
    p.re.lastIndex = 0;
    for (let m = p.re.exec(text); m; m = p.re.exec(text)) {
      const value = m[p.group ?? 0];
      const start = m.index + (p.group ? m[0].lastIndexOf(value) : 0);
      if (p.kind !== 'private key' && isPlaceholder(value, p.group === undefined)) continue;
      hits.push({ kind: p.kind, start, end: start + value.length, masked: mask(value) });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

/** Runs of 6 that count up (`123456`, `abcdef`): the keys of documentation, not of accounts. */
const SEQUENTIAL = /0123|1234|2345|3456|4567|5678|6789|abcdef|ABCDEF/;

function isPlaceholder(value: string, isKey: boolean): boolean {
  if (PLACEHOLDER_WORDS.test(value)) return true;
  // A reference to a variable (`"$API_KEY"`, `"%TOKEN%"`, `"{{ secret }}"`) names where the secret comes from.
  if (/^[$%]|^\{\{/.test(value)) return true;
  // A config's substitution of one (`"{env:API_KEY}"`, `"{file:~/.keys/api}"`): the value is read from there.
  if (/^\{[a-z]+:[^{}\s]+\}$/i.test(value)) return true;
  // The name of a variable written where its value goes (`api_key="SERVICE_API_KEY"`): upper-case words joined by `_`.
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return true;
  // An ordinary word (`password = "hardcoded"`) illustrates the pattern; a credential mixes kinds of characters.
  if (!isKey && /^[a-z]+$/i.test(value)) return true;
  // A word and a count from one (`Admin123`, `demo12`), or `abc123`: the demo password of a tutorial, not an account's.
  if (/^(?:[a-z]+[-_]?)?(?:abc)?1(?:2(?:3(?:4(?:5(?:6)?)?)?)?)?!?$/i.test(value.replace(/^sk-/, ''))) return true;
  if (SEQUENTIAL.test(value)) return true;
  // A vendor's prefix (`rk_live_`, `whsec_`) and a tail of runs that count up (`abc123`, `abcd1234wxyz`): made up.
  if (countsUp(value.replace(/^(?:[a-z]+[-_])+/i, ''))) return true;
  // The words password or secret in leetspeak (`P@ssw0rd`, `S3cr3t!`): a documentation password, not an account's.
  if (!isKey && (LEET_WORDS.test(deleet(value, 'i')) || LEET_WORDS.test(deleet(value, 'l')))) return true;
  if (/^(.)\1+$/.test(value.replace(/^[a-z]+[-_]/i, ''))) return true;
  // Real keys mix letters and digits; a long key without digits reads as an illustration.
  return isKey && (!/\d/.test(value) || !/[A-Za-z]/.test(value));
}

/** After leetspeak is read back as letters: the words a demo password spells. */
const LEET_WORDS = /pass(?:word|wd)|secret/i;
const LEET: Record<string, string> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i' };

/** `value` with leetspeak digits and signs read as letters (`1` as `one`, an i or an l). */
function deleet(value: string, one: 'i' | 'l'): string {
  let out = '';
  for (const c of value) out += c === '1' ? one : (LEET[c] ?? c);
  return out;
}

/**
 * True when `tail` (at least 6 characters) is made only of runs of 3 or more characters that count up by one
 * (`abc123`, `xyz789`, `abcd1234`): no random key is, every tutorial's key is.
 */
function countsUp(tail: string): boolean {
  if (tail.length < 6) return false;
  let run = 1;
  for (let i = 1; i <= tail.length; i++) {
    if (i < tail.length && tail.charCodeAt(i) === tail.charCodeAt(i - 1) + 1) {
      run++;
      continue;
    }
    if (run < 3) return false;
    run = 1;
  }
  return true;
}

function mask(value: string): string {
  if (value.startsWith('-----')) return value;
  return value.length <= 8 ? '…' : `${value.slice(0, 4)}…${value.slice(-2)}`;
}
