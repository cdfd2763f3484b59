import { TextIndex } from '../textIndex';
import { counterExampleLines, EXAMPLE_LEAD, REPLACE_TRAIL } from './referenceContext';
import { rule, type RuleInfo } from './ruleInfo';
import { scriptRunMatches } from './scriptRunScan';

/**
 * Portability rules: a skill that works on its author's machine and nowhere else. They read every Markdown
 * file of the skill (SKILL.md and the files it ships), and personal paths in every text file, so they run
 * with the file rules (validateFiles). The scanners here are pure: text in, hits out.
 */
export const PORTABILITY_RULES: readonly RuleInfo[] = [
  rule('personal-path', 'warning', 'warning', 'A file of the skill names a path in one person\'s home folder (`/Users/<name>/…`, `/home/<name>/…`, `C:\\Users\\<name>\\…`).',
    'A path into the author\'s home folder exists on the author\'s machine only: for everyone else the command or script that uses it fails. Ship the file in the skill and refer to it relative to the skill folder, or ask for the path (an argument, an environment variable). Paths with a placeholder user (`/home/user`, `/Users/<you>`, `$HOME`), paths after "e.g." and paths in a script\'s comments (`# …`, `// …`; read by people, not run) are not reported.'),
  rule('install-path-hardcoded', 'warning', 'warning', 'Instructions reach the skill\'s own files through one install location (`.claude/skills/<name>/…`).',
    'A skill is installed in many places: the project, the user\'s folder, a plugin, another host\'s folder. `cd .claude/skills/<name>/scripts` works in one of them. Refer to the skill\'s files relative to the skill folder (hosts resolve them there), or through the host\'s variable (`${CLAUDE_SKILL_DIR}` in Claude Code). A text that names the skill under several install folders (a table of where each host installs it) documents them: there only a path a command runs or enters (`cd`, `python`, `bash`) is reported.'),
  rule('script-path-incomplete', 'warning', 'warning', 'A command runs a script by its bare name (`python check.py`) while the file is in a folder of the skill (`scripts/check.py`).',
    'Run from the skill folder, `python check.py` finds no file: the script lives in a sub-folder. Write the path relative to the skill folder (`python scripts/check.py`). Commands after a `cd` in the same code block are not judged.'),
  rule('secret-printed', 'warning', 'warning', 'Instructions print a secret into the conversation (`echo $API_KEY`, `printenv TOKEN`).',
    'Whatever a command prints goes into the transcript the model reads and the host may store or send on. To check that a secret is set, test it without printing it: `[ -n "$API_KEY" ] && echo set`, or print its length `${#API_KEY}`. Lines that show what not to do ("never", "must not", "❌", an attack) are not reported.'),
  rule('archive-shipped', 'warning', 'warning', 'The skill ships an archive (`.zip`, `.tar.gz`, `.7z`, …).',
    'Hosts do not unpack archives, the model cannot read inside them, and reviewers cannot see what they hold. Ship the files unpacked, or have a script fetch and check the archive when it is needed.'),
];

/** A hit of a scanner: the offsets in the text and what was found. */
export interface TextHit {
  start: number;
  end: number;
  /** What the message quotes. */
  text: string;
  /** A second fact for the message (the user name, the variable, the folder). */
  detail: string;
}

/** Names that stand for any user in documentation: not one person's folder. */
const PLACEHOLDER_USERS = new Set([
  'user', 'users', 'username', 'user-name', 'user_name', 'you', 'your', 'yourname', 'your-name', 'your_name', 'yourusername', 'me', 'name', 'myuser', 'myname',
  'someone', 'somebody', 'john', 'jane', 'johndoe', 'janedoe', 'jdoe', 'alice', 'bob', 'example', 'foo', 'bar', 'test', 'testuser', 'demo', 'guest',
  'x', 'xx', 'xxx', 'runner', 'ubuntu', 'ec2-user', 'admin', 'root', 'node', 'app', 'vscode', 'codespace', 'codespaces', 'jovyan', 'coder', 'dev',
  'developer', 'shared', 'public', 'default', 'pi', 'vagrant', 'docker', 'linuxbrew', 'runneradmin', 'all users', 'default user',
  // Accounts of images, CI runners and servers: the same on every machine that has them.
  'appuser', 'app-user', 'nonroot', 'www-data', 'postgres', 'debian', 'centos', 'fedora', 'azureuser', 'opc', 'git', 'builder', 'build',
  'ci', 'jenkins', 'gitlab-runner', 'circleci', 'agent', 'steam', 'sandbox', 'workspace', 'project', 'projects', 'home', 'local',
  // Folders named for what they hold (`file:///home/images/a.png` in an example): no person's home.
  'images', 'files', 'data', 'docs', 'documents', 'downloads', 'media', 'photos', 'videos', 'music', 'uploads', 'backups', 'logs', 'tmp', 'temp', 'www', 'web', 'static',
]);

/** `/Users/<name>`, `/home/<name>`, `/mnt/c/Users/<name>`, `C:\Users\<name>` (also `C:/Users`, `C:\\Users` in code strings). */
const PERSONAL = /(?<![\w.~$}-])(?:\/mnt\/[a-z]\/Users|\/Users|\/home|[A-Za-z]:(?:\\{1,2}|\/)Users)(?:\\{1,2}|\/)([A-Za-z][\w.-]{0,38})(?=[\\/"'`\s)\]]|$)/gm;

/** Script files whose comments start with `#` (shell, Python, Ruby, Perl, R, PowerShell) or `//` (JavaScript and its kin, Go, Rust, …). */
const HASH_COMMENTS = /\.(?:sh|bash|zsh|fish|py|rb|pl|r|ps1|psm1)$/i;
const SLASH_COMMENTS = /\.(?:[cm]?[jt]sx?|go|rs|java|kt|swift|c|cc|cpp|h|hpp|cs|php|dart|scala)$/i;

/** The comment opener of a script file (`#` or `//`), or undefined for any other file (Markdown, data, text). */
export function commentOpener(file: string): '#' | '//' | undefined {
  return HASH_COMMENTS.test(file) ? '#' : SLASH_COMMENTS.test(file) ? '//' : undefined;
}

/**
 * True when offset `at` is inside a comment on its line: after `opener` at the line's start or after white space
 * (`# …`, `code  // …`; not `https://`, not `a#b`). A script's comment is read by people only: a path there (how a
 * Windows path looks, where the author tried it) is no path the script uses.
 */
function inLineComment(lines: TextIndex, at: number, opener: '#' | '//'): boolean {
  const before = lines.text.slice(Math.max(lines.lineStartOf(at), at - 200), at);
  return opener === '#' ? /(?:^|\s)#/.test(before) : /(?:^|\s)\/\//.test(before);
}

/**
 * Paths in one person's home folder; the first of each user name per text, and how many lines hold one. `comments`:
 * the comment opener of a script file, whose comments are not read (see {@link commentOpener}).
 */
export function personalPaths(text: string, comments?: '#' | '//', index?: TextIndex): TextHit[] {
  const out: TextHit[] = [];
  const seen = new Set<string>();
  // Line starts from the text's line index, each line's "never"/"bad" read once: a search back to the line's start and
  // a read of the whole line for each path made a one-line text of many users' paths quadratic.
  const lines = index ?? new TextIndex(text);
  const counterExample = counterExampleLines(lines);
  PERSONAL.lastIndex = 0;
  for (let m = PERSONAL.exec(text); m; m = PERSONAL.exec(text)) {
    const user = m[1].replace(/[.-]+$/, '');
    const lower = user.toLowerCase();
    if (PLACEHOLDER_USERS.has(lower) || /^(?:your|my|example|placeholder|<)/.test(lower) || seen.has(lower)) continue;
    // Under /home a user name is lower case (`useradd`'s rule: a letter or `_`, then letters, digits, `-`, `_`):
    // `/home/logPath`, `/home/AppName-2.0` are folders someone made up, no one's home.
    if (m[0].startsWith('/home') && !/^[a-z_][a-z0-9_-]*$/.test(user)) continue;
    if (EXAMPLE_LEAD.test(text.slice(leadStart(lines, m.index), m.index).replace(/\r?\n/, ' ')) || REPLACE_TRAIL.test(text.slice(m.index + m[0].length, m.index + m[0].length + 60)) || counterExample(m.index)) continue;
    if (comments && inLineComment(lines, m.index, comments)) continue;
    seen.add(lower);
    out.push({ start: m.index, end: m.index + m[0].length, text: m[0], detail: user });
  }
  return out;
}

/**
 * Where the example lead-in of a path at `at` is looked for: up to 80 characters back on its line, and on the line
 * before when the sentence runs on from there (a hard-wrapped paragraph: that line is not blank and does not end
 * a sentence).
 */
function leadStart(lines: TextIndex, at: number): number {
  const text = lines.text;
  const line = lines.positionAt(at).line;
  const lineStart = lines.lineStart(line);
  if (lineStart === 0) return Math.max(0, at - 80);
  const prevStart = lines.lineStart(line - 1);
  const prev = text.slice(prevStart, lineStart - 1).replace(/\r$/, '');
  if (prev.trim() === '' || /[.!?。！？:：]\s*$/.test(prev) || /^\s*(?:```|~~~|[-*+]\s|\d+\.\s|#|\|)/.test(text.slice(lineStart, at))) return Math.max(lineStart, at - 80);
  return Math.max(prevStart, at - 80 - (lineStart - prevStart));
}

/** Folders hosts install skills into, under a project or the home folder. */
const INSTALL_ROOTS = String.raw`\.(?:claude|codex|agents|github|copilot|cursor|gemini|opencode|windsurf)\/skills`;

/** Commands that put a skill in its install folder or look at it there. */
const INSTALL_COMMAND = /(?:^|[\s`;&|(])(?:cp|mv|ln|rsync|git clone|mkdir|ls|install|curl|wget|unzip|tar|npx skills|scp)\s/;

/** A command that runs or enters what follows on its line (`cd`, `python`, `bash`, `source`, `uv run`, `node`, …). */
const RUN_COMMAND = /(?:^|[\s`;&|(])(?:cd|pushd|source|\.|python[23]?|py|uv run|node|npx|deno run|bun|tsx|bash|sh|zsh|ruby|perl|Rscript|pwsh|powershell|cat|open|code|vim|nano|chmod)\s+(?:-\S+\s+)*\S*$/;

/**
 * `.claude/skills/<skillName>/<something>`: the skill's own files reached through one install location. A text that
 * names the skill under two or more install folders (a README's table of where each host installs it) documents
 * the install places: of those, only a path a command on its line runs or enters (`cd`, `python`, `bash`) counts.
 */
export function installPaths(text: string, skillName: string): TextHit[] {
  if (!skillName || !text.includes('/skills/')) return [];
  const escaped = skillName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(String.raw`(?:~\/|\$HOME\/|\$\{HOME\}\/|(?<![\w.-]))${INSTALL_ROOTS}\/${escaped}\/[\w.-]+`, 'g');
  const out: TextHit[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // Installing, copying or listing the skill there is what that folder is for.
    const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
    if (INSTALL_COMMAND.test(text.slice(lineStart, m.index))) continue;
    out.push({ start: m.index, end: m.index + m[0].length, text: m[0], detail: m[0].slice(0, m[0].indexOf('/skills/') + 8) });
  }
  // Each place once: `$HOME/.claude/skills/` is `~/.claude/skills/`; the project's `.claude/skills/` is another.
  const roots = new Set(out.map((h) => h.detail.replace(/^\$\{?HOME\}?\//, '~/')));
  if (roots.size < 2) return out;
  return out.filter((h) => RUN_COMMAND.test(text.slice(Math.max(text.lastIndexOf('\n', h.start - 1) + 1, h.start - 120), h.start)));
}

/**
 * Scripts run by a bare file name in code (a code block or inline code) with no `cd` before them in the same
 * block: `[offset, name]` of each. Whether the name misses its folder is for the caller, who knows the files.
 */
export function bareScriptRuns(text: string, blocks: readonly (readonly [number, number])[], index?: TextIndex): TextHit[] {
  const out: TextHit[] = [];
  // Each stretch of the text read once however many runs it holds: the line's start and backticks, the block or line
  // searched once for a `cd` and the lines before it for "from the x folder" (read again for each run of a one-line
  // body or a long block, they were quadratic: oneLinePaths.redteam.test.ts).
  const lines = index ?? new TextIndex(text);
  const ticks = backticksBefore(text);
  const entered = leftmostIn(text, /(?:^|[\s;&(`])(?:cd|pushd|Set-Location)\s/m);
  const placed = leftmostIn(text, /\b(?:from|in|inside|within|into)\s+(?:the\s+)?`?[\w.-]+\/?`?\s+(?:folder|directory|dir)\b|\b(?:from|in|inside)\s+`?[\w.-]+\/`?/i);
  const previous = new Map<number, number>();
  let b = 0;
  for (const m of scriptRunMatches(text)) {
    // Runs come in order: the blocks before this one are passed for good.
    while (b < blocks.length && blocks[b][1] <= m.index) b++;
    const block = b < blocks.length && blocks[b][0] <= m.index ? blocks[b] : undefined;
    const line = lines.positionAt(m.index).line;
    const lineStart = lines.lineStart(line);
    if (!block) {
      // Outside a code block only inline code counts: an odd number of backticks before it on its line.
      if (ticks(lineStart, m.index) % 2 === 0) continue;
    }
    const from = block ? block[0] : lineStart;
    const end = block ? block[1] : lines.lineEnd(line);
    if (entered(from, end, m.index)) continue;
    const name = m[1];
    // "From the scripts/ folder, run `python check.py`": the text says where, on its line or the one before.
    let prevLine = previous.get(from);
    if (prevLine === undefined) previous.set(from, (prevLine = previousTextLine(text, from)));
    if (placed(prevLine, end, m.index)) continue;
    const at = m.index + m[0].lastIndexOf(name);
    out.push({ start: at, end: at + name.length, text: m[0].trim(), detail: name });
  }
  return out;
}

/**
 * Backticks from a line's start to an offset, asked with offsets rising (a new line starts the count again): each
 * character counted once.
 */
function backticksBefore(text: string): (lineStart: number, at: number) => number {
  let start = -1;
  let pos = 0;
  let count = 0;
  return (lineStart, at) => {
    if (lineStart !== start || at < pos) {
      start = lineStart;
      pos = lineStart;
      count = 0;
    }
    for (; pos < at; pos++) if (text.charCodeAt(pos) === 96) count++;
    return count;
  };
}

/**
 * Whether `re` matches in `text.slice(from, at)`: its leftmost match in `text.slice(from, end)` found once per `from`
 * (the block or line a run is in, `at` inside it). A match ending by `at` is in the shorter text, one starting at or
 * after `at` is not; only one across `at` is tried on the shorter text itself.
 */
function leftmostIn(text: string, re: RegExp): (from: number, end: number, at: number) => boolean {
  const found = new Map<number, { until: number; hit: { start: number; end: number } | undefined }>();
  return (from, end, at) => {
    let seen = found.get(from);
    if (seen?.until !== end) {
      const m = re.exec(text.slice(from, end));
      found.set(from, (seen = { until: end, hit: m ? { start: from + m.index, end: from + m.index + m[0].length } : undefined }));
    }
    const hit = seen.hit;
    if (!hit || hit.start >= at) return false;
    return hit.end <= at || re.test(text.slice(from, at));
  };
}

/** The first match of `re` (global) at or after `from`, or the text's length; asked with `from` rising, each stretch searched once. */
function firstFrom(text: string, re: RegExp): (from: number) => number {
  let asked = -1;
  let found = -1;
  return (from) => {
    if (from < asked || found < from) {
      re.lastIndex = from;
      const m = re.exec(text);
      found = m ? m.index : text.length;
    }
    asked = from;
    return found;
  };
}

/** The start of the last non-blank line before the line starting at `lineStart` (at most three lines back). */
function previousTextLine(text: string, lineStart: number): number {
  let at = lineStart;
  for (let i = 0; i < 3 && at > 0; i++) {
    at = text.lastIndexOf('\n', at - 2) + 1;
    const end = text.indexOf('\n', at);
    if (text.slice(at, end < 0 ? text.length : end).trim() !== '') return at;
  }
  return at;
}

/** A variable whose name says it holds a secret: it ends in KEY, TOKEN, SECRET, PASSWORD… (`SSH_KEY_PATH` holds a path), unless PUBLIC_NAME. */
const SECRET_NAME = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PAT|CREDENTIALS?)$/i;
/** A name that says its value is public by design (`NEXT_PUBLIC_…`, `…_PUBLISHABLE_KEY`, `…_ANON_KEY`, `…_PUBLIC_KEY`). */
const PUBLIC_NAME = /(?:^|_)(?:PUBLIC|PUBLISHABLE|ANON)(?:_|$)/i;

/**
 * Commands that print a secret-named variable where the model reads it: `echo $API_KEY`, `printenv GITHUB_TOKEN`,
 * `Write-Host $env:TOKEN`, `print(os.environ["API_KEY"])`. Not: `${#KEY}` (its length), `${KEY:0:4}`, `${KEY:+set}`,
 * single quotes (no expansion), output piped or redirected (`echo "$TOKEN" | gh auth login --with-token`).
 */
export function printedSecrets(text: string, blocks: readonly (readonly [number, number])[] = [], index?: TextIndex): TextHit[] {
  if (!/echo|printenv|print|Write-Host|console\.log/.test(text)) return [];
  const counterExample = counterExampleLines(index ?? new TextIndex(text));
  // A YAML block (a CI workflow's `run:` step, a compose file) holds commands that run on a CI runner or a server,
  // whose log masks secrets: not in the conversation.
  const elsewhere = blocks.filter(([start, end]) => {
    const nl = text.indexOf('\n', start);
    return nl > start && nl < end && /^\s*(?:`{3,}|~{3,})\s*ya?ml\b/i.test(text.slice(start, nl));
  });
  const out: TextHit[] = [];
  const forms: RegExp[] = [
    /(?<![\w-])(?:echo|printf)\s+(?:-[a-z]+\s+)*(?:"[^"$\n]*)?\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*)|env:([A-Za-z_]\w*))(?![\w:#}[])/g,
    /(?<![\w-])printenv\s+([A-Za-z_]\w*)/g,
    /(?<![\w-])Write-(?:Host|Output)\s+(?:"[^"\n]*)?\$env:([A-Za-z_]\w*)/g,
    /(?<![\w.])(?:print|console\.log)\(\s*(?:os\.environ\[["']|os\.getenv\(["']|os\.environ\.get\(["']|process\.env\.)([A-Za-z_]\w*)/g,
  ];
  for (const re of forms) {
    // The rest of the command found from each hit on, each stretch searched once (a slice to the line's end per hit
    // was quadratic on `echo $TOKEN ` repeated on one line).
    const commandEnd = firstFrom(text, /`|&&|;|\s#|\n/g);
    const pipe = firstFrom(text, /[|>]/g);
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const name = m[1] ?? m[2] ?? m[3];
      if (!name || !SECRET_NAME.test(name) || PUBLIC_NAME.test(name)) continue;
      // Piped into a command or redirected into a file: not printed. Cut at a closing backtick (inline code ends there).
      const after = m.index + m[0].length;
      if (pipe(after) < commandEnd(after)) continue;
      if (/echo\s+'/.test(m[0]) || counterExample(m.index)) continue;
      // `echo "::add-mask::$TOKEN"`: GitHub Actions' command that hides the value in every later line of the log.
      if (/::add-mask::/.test(m[0]) || elsewhere.some(([start, end]) => m.index >= start && m.index < end)) continue;
      out.push({ start: m.index, end: m.index + m[0].length, text: m[0], detail: name });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** File names of archives: a host never unpacks them. */
export const ARCHIVE_FILE = /\.(?:zip|tar|tgz|tar\.gz|tar\.bz2|tbz2?|tar\.xz|txz|tar\.zst|7z|rar|skill)$/i;
