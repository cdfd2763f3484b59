import { inBlocks } from '../markdownBlocks';
import { BASE_COMMANDS, KNOWN_COMMANDS, NOT_PROGRAMS } from './knownCommands';
import { rule, type RuleInfo } from './ruleInfo';

/**
 * The rule for a program the skill depends on but never introduces (issue 25's twelfth missed problem). The
 * scanners are pure: text in, uses out; validateFiles gives them the skill's texts and files.
 */
export const COMMAND_RULES: readonly RuleInfo[] = [
  rule('own-command-undeclared', 'off', 'info', 'SKILL.md is built on a program named like the skill itself and never says how to get it.',
    'A skill named for a program (`acme-notes` running `acme` again and again) whose shell examples are built on it (the one they run most, at least three times), when the program is not a common tool and the skill does not ship, install, link to, name in its description or declare it in its frontmatter (`compatibility`, `allowed-tools`, a host `metadata` field), leaves a user without it with "command not found" and no way on: the skill exists for a program it never introduces. Add an install step ("Install with `npm i -g …`"), or name the program and where it comes from in `compatibility`. The confident part of `command-undeclared` (issue 25): a program named like the skill is the skill\'s own subject, not a tool of a trade the reader already has, so it is on by default (info).'),
  rule('command-undeclared', 'off', 'off', 'SKILL.md keeps running a program that it never says how to get (off unless turned on).',
    'A skill whose shell examples are built on a program (the one they run most, at least three times) that is not a common tool, that the skill does not ship, install, link to, name in its description or declare in its frontmatter (`compatibility`, `allowed-tools`, a host `metadata` field), leaves a user without it with "command not found" and no way on. Add an install step ("Install with `npm i -g …`"), or name the program and where it comes from in `compatibility`. Common tools (shell, system, language toolchains, well-known platform CLIs) are not reported, nor a program named like the skill (`own-command-undeclared` reports that one). Off by default: on skills of publishers it was not designed on, about half of its findings were right (issue 25: 60 right, 64 wrong, 18 debatable over seven fresh draws, each judged before its classes were fixed), as the programs a skill may take for granted (the console commands of a device, the own programs of a framework, the tools of a security or network trade) are a long tail no list covers; turn it on with `rules: { command-undeclared: info }`.'),
];

/** A program run in the shell code blocks of a text: the first run and how many command lines run it. */
export interface CommandUse {
  command: string;
  /** Offsets of the first run's command word. */
  start: number;
  end: number;
  /** The first command line that runs it (trimmed, cut at 80 characters). */
  line: string;
  runs: number;
  /** Named like the skill (its name or folder): the skill's own program, not a tool of a trade the reader may have. */
  own?: boolean;
}

/** Fences whose commands are shell commands. Untagged blocks (often output or trees) are not read. */
const SHELL_INFO = /^(?:bash|sh|shell|console|zsh|fish|ksh|terminal|shellscript|shell-session)\b/i;
/** A program's name as typed: lowercase word with inner dashes, dots or underscores (no path, no variable). */
const PROGRAM = /^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*$/;
/** Words before the program that only change how it runs. */
const PREFIXES = new Set(['sudo', 'env', 'time', 'exec', 'nohup', 'command', 'builtin', 'then', 'do', 'else', '!', '{', '(']);
/** `command -v x`, `which x`, `type x`, `hash x`: the skill checks whether the program is there, which is what this rule asks for. */
const PRESENCE_CHECK = /^\s*(?:(?:if|elif|while|until|!)\s+)*(?:command\s+-[vV]|which|type|hash|whereis)\s/;
/** A script file run by name (`report.sh`): a file of the skill or the project, for script-path-incomplete, not a program to install. */
const SCRIPT_FILE = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|ps1|lua|r)$/i;
/** Names that stand for the reader's own command in an example (`process "$item"`, `my-tool`, `your_cli`). */
const PLACEHOLDER = /^(?:process|handle|handler|main|do[-_]?something|some[-_]?command|command[-_]?name|example|foo|bar|baz|tool|cli|cmd|(?:my|your)[-_]?\w*)$/;
/** Most runs read of one text: a skill with more lines of shell than this has told its story already. */
const MAX_LINES = 5_000;

/**
 * Each program run in the shell code blocks (```bash, ```sh, ```console, …) of `text`: the first word of each
 * command of a line (after `|`, `&&`, `||`, `;`), past a `$ ` prompt, variable assignments and prefixes such as
 * `sudo`/`env`. Comments, heredoc bodies, continuation lines and the functions or aliases a block defines are
 * left out.
 */
export function commandUses(text: string, blocks: readonly (readonly [number, number])[]): Map<string, CommandUse> {
  const uses = new Map<string, CommandUse>();
  // Functions and aliases defined in any block of the text: a later block may call one defined earlier, or before.
  const defined = new Set<string>();
  // Programs the text checks for (`command -v x`): it deals with their absence itself.
  const checked = new Set<string>();
  let lines = 0;
  for (const [start, end] of blocks) {
    const open = text.indexOf('\n', start);
    if (open < 0 || open >= end) continue;
    const info = text.slice(start, open).replace(/^\s*[`~]+/, '').trim();
    if (!SHELL_INFO.test(info)) continue;
    let heredoc: string | undefined;
    let continued = false;
    let openQuote = '';
    for (let at = open + 1; at < end && lines < MAX_LINES; ) {
      const nl = text.indexOf('\n', at);
      const lineEnd = nl < 0 || nl > end ? end : nl;
      const raw = text.slice(at, lineEnd);
      const lineStart = at;
      at = lineEnd + 1;
      lines++;
      const line = raw.replace(/\r$/, '');
      if (/^\s*(?:```|~~~)/.test(line)) continue;
      if (heredoc !== undefined) {
        if (line.trim() === heredoc) heredoc = undefined;
        continue;
      }
      // Inside a quoted string that spans lines (a jq or awk program, a JSON body): no commands until it closes.
      if (openQuote) {
        if (line.includes(openQuote)) openQuote = '';
        continue;
      }
      const wasContinued = continued;
      continued = /\\$/.test(line);
      const here = /<<-?\s*['"]?([A-Za-z_]\w*)['"]?/.exec(line);
      if (here) heredoc = here[1];
      if (wasContinued) continue;
      const trimmed = line.replace(/^\s*(?:\$|%|>|PS>)\s+/, '').trimStart();
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      const def = /^(?:function\s+([\w-]+)|([\w-]+)\s*\(\)|alias\s+([\w-]+)=)/.exec(trimmed);
      if (def) {
        defined.add(def[1] ?? def[2] ?? def[3]);
        continue;
      }
      const offset = lineStart + (line.length - line.trimStart().length) + (line.trimStart().length - trimmed.length);
      const split = segments(trimmed);
      openQuote = split.openQuote;
      for (const seg of split.parts) {
        if (PRESENCE_CHECK.test(seg.text)) {
          for (const w of seg.text.trim().split(/\s+/).slice(1)) if (PROGRAM.test(w)) checked.add(w);
          continue;
        }
        const word = programOf(seg.text);
        if (!word) continue;
        const s = offset + seg.at + word.at;
        const u = uses.get(word.word);
        if (u) u.runs++;
        else uses.set(word.word, { command: word.word, start: s, end: s + word.word.length, line: trimmed.slice(0, 80), runs: 1 });
      }
    }
  }
  for (const name of [...defined, ...checked]) uses.delete(name);
  return uses;
}

/**
 * The commands of a line split at `|`, `||`, `&&`, `;` and `$(` outside quotes, with their offsets in the line, and
 * the quote left open at its end (a string that goes on on the next lines).
 */
function segments(line: string): { parts: { text: string; at: number }[]; openQuote: string } {
  const out: { text: string; at: number }[] = [];
  let quote = '';
  let from = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '\\') i++;
    else if (c === '$' && line[i + 1] === '(' && line[i + 2] !== '(') {
      out.push({ text: line.slice(from, i), at: from });
      from = i + 2;
      i++;
    }
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) break;
    else if (c === '|' || c === ';' || (c === '&' && line[i + 1] === '&')) {
      out.push({ text: line.slice(from, i), at: from });
      if (line[i + 1] === c) i++;
      from = i + 1;
    }
  }
  out.push({ text: line.slice(from), at: from });
  return { parts: out, openQuote: quote };
}

/** The program a command runs: its first word past prefixes and `NAME=value` assignments, if it looks like one. */
function programOf(cmd: string): { word: string; at: number } | undefined {
  const re = /\S+/g;
  for (let m = re.exec(cmd); m; m = re.exec(cmd)) {
    const w = m[0];
    if (PREFIXES.has(w) || /^[A-Za-z_]\w*=/.test(w) || /^-/.test(w)) continue;
    // `VAR=$(cmd …)` was split at `$(`: the assignment's own part holds no program.
    const bare = w.replace(/^[({]+/, '');
    // `content = fetch(url)`, `total += 1`: Python or JavaScript pasted in a shell block, an assignment, not a run.
    if (/^\s*[-+*/]?=(?!=)/.test(cmd.slice(m.index + w.length))) return undefined;
    return PROGRAM.test(bare) ? { word: bare, at: m.index + (w.length - bare.length) } : undefined;
  }
  return undefined;
}

/** What the skill says about itself that may introduce a program. */
export interface CommandContext {
  /** The skill's name and folder name: a program named like them is the skill's own (`own-command-undeclared`). */
  names?: readonly string[];
  /** The description (a program named there is the skill's subject, known to whoever installs it). */
  description: string;
  /** The frontmatter as written: `compatibility`, `allowed-tools` or a host's `metadata` may name it. */
  declared: string;
  /** Every text of the skill (SKILL.md first), where an install step, a link or a requirement may name it. */
  texts: readonly string[];
  /** The skill's files, relative to its folder. */
  files: readonly string[];
}

/** Fewest runs that make a program something the skill depends on, not a passing example. */
export const MIN_RUNS = 3;

const INSTALL_LINE = /\b(?:install|add|i|get|tap|fetch|download|setup)\b|\bnpx\b|\bbunx\b|\buvx\b|\bpipx run\b|\|\s*(?:ba|z)?sh\b|\biwr\b|\biex\b/i;
const REQUIRE_WORDS = /\b(?:install(?:s|ed|ing|ation)?|requires?|required|requirements?|prerequisites?|depends? on|download(?:s|ed)?|available (?:from|at|on|via)|provided by|comes with|ships with|bundled with|part of)\b|安装|必需|必须|依赖|前置|自带|内置|随[^|]{0,8}提供/i;
const URL = /\bhttps?:\/\/[^\s)>\]"'`]+/g;
/** What a product's own programs add to its name: its daemon (`rqlited`), its control or command-line program. */
const PRODUCT_SUFFIX = /^(?:d|ctl|cli|-cli|-ctl|-server|server|-daemon|-agent)$/i;
/** A scoped package (`@scope/name`) or a link in a heading: the section says where its commands come from. */
const HEADING_SOURCE = /@[\w.-]+\/[\w.-]+|\]\(|https?:\/\//;

/**
 * The programs SKILL.md (`text`, with its fenced `blocks`) runs at least {@link MIN_RUNS} times that are neither
 * common tools nor introduced anywhere in the skill (see {@link CommandContext}).
 */
export function undeclaredCommands(text: string, blocks: readonly (readonly [number, number])[], ctx: CommandContext): CommandUse[] {
  const out: CommandUse[] = [];
  const uses = [...commandUses(text, blocks).values()];
  // The program the skill is built on is the one it runs most (shell words and base utilities aside): a tool run now
  // and then beside it (`jcmd` in a Java skill run mostly through `mvn`) is a detail of its subject, not its basis.
  const most = Math.max(0, ...uses.filter((u) => !BASE_COMMANDS.has(u.command)).map((u) => u.runs));
  for (const use of uses) {
    const p = use.command;
    if (use.runs < most) continue;
    if (use.runs < MIN_RUNS || KNOWN_COMMANDS.has(p) || NOT_PROGRAMS.has(p) || SCRIPT_FILE.test(p) || PLACEHOLDER.test(p)) continue;
    const word = new RegExp(`(?<![\\w-])${p.replace(/[.]/g, '\\.')}(?![\\w-])`, 'i');
    if (word.test(ctx.description) || word.test(ctx.declared)) continue;
    // `moon` of a skill about "moonrepo": the program is named by the product the description names.
    if (p.length >= 3 && new RegExp(`(?<![\\w-])${p.replace(/[.]/g, '\\.')}[a-z]`, 'i').test(ctx.description)) continue;
    // `rqlited` of a skill about rqlite: the daemon or control program of the product the description names.
    if (ctx.description.match(/[a-z][a-z0-9]{3,}/gi)?.some((w) => p.toLowerCase().startsWith(w.toLowerCase()) && PRODUCT_SUFFIX.test(p.slice(w.length)))) continue;
    // `in-toto-run` of a skill about in-toto, `tracer.exe` of a skill about Tracer: a program of the framework or
    // product the description names, its name followed by the program's own part.
    if (productProgram(p, ctx.description)) continue;
    // "your native `grep_search` tool", "the `message` tool call": a tool of the agent written as a command.
    const tool = new RegExp(`(?:native|built-in|agent's|内置)\\s+\`${p}\`\\s*(?:tool|工具)|\`${p}\`\\s*(?:tool call|工具调用)`, 'i');
    if (ctx.texts.some((t) => tool.test(t))) continue;
    if (ctx.files.some((f) => { const base = f.slice(f.lastIndexOf('/') + 1); return base === p || base.replace(/\.[^.]+$/, '') === p; })) continue;
    if (ctx.texts.some((t) => introduces(t, p, word))) continue;
    if (headingNamesSource(text, blocks, use.start)) continue;
    out.push({ ...use, own: namedLikeSkill(p, ctx.names ?? []) });
  }
  return out;
}

/** True when `text` installs `p`, links to it, or says it is required or where it comes from, on one line. */
function introduces(text: string, p: string, word: RegExp): boolean {
  // `toxiproxy-cli` comes from the package `toxiproxy`: an install step or a link may name only the stem.
  const stem = /^[a-z0-9]{4,}(?=[-_])/.exec(p)?.[0];
  // "Install the ClawLink plugin" for `clawlink_call_tool`: the product that provides it, named where it is required.
  if (stem && stem !== p && introducesName(text, stem, new RegExp(`(?<![\\w-])${stem}(?![\\w-])`, 'i'))) return true;
  return introducesName(text, p, word);
}

function introducesName(text: string, p: string, word?: RegExp): boolean {
  const lower = p.toLowerCase();
  const folded = text.toLowerCase();
  for (let at = folded.indexOf(lower); at >= 0; at = folded.indexOf(lower, at + 1)) {
    const ls = text.lastIndexOf('\n', at - 1) + 1;
    const le = text.indexOf('\n', at);
    const line = text.slice(ls, le < 0 ? text.length : le);
    // An install step naming it or a package that holds its name (`npm i -g acme-cli` for `acme`).
    if (INSTALL_LINE.test(line) && /\b(?:pip3?|pipx|uv|npm|pnpm|yarn|bun|brew|apt(?:-get)?|dnf|yum|apk|pacman|cargo|go|gem|choco|winget|scoop|conda|mamba|npx|bunx|uvx|curl|wget|iwr|gh|docker|nix|snap|dotnet|composer|mix|stack|cabal|opam|luarocks|cpan)\b/i.test(line)) return true;
    for (const u of line.match(URL) ?? []) if (u.toLowerCase().includes(lower)) return true;
    // A path to it (`${ROOT}/tools/search-conversations`, `./bin/acme`): the skill says where it is.
    if (new RegExp(`/${lower.replace(/[.]/g, '\\.')}(?![\\w.-])`).test(line.toLowerCase())) return true;
    if (word && word.test(line) && REQUIRE_WORDS.test(line)) return true;
  }
  return false;
}

/** True when the heading of the section holding offset `at` names a package or a link. */
function headingNamesSource(text: string, blocks: readonly (readonly [number, number])[], at: number): boolean {
  const re = /^#{1,6}\s.*$/gm;
  let last: string | undefined;
  for (let m = re.exec(text); m && m.index < at; m = re.exec(text)) if (!inBlocks(blocks as [number, number][], m.index)) last = m[0];
  return last !== undefined && HEADING_SOURCE.test(last);
}

/** Words of skill and program names that say what kind of thing it is, not which: they never make a program the skill's own. */
const KIND_WORDS = new Set(['cli', 'ctl', 'tool', 'tools', 'skill', 'skills', 'agent', 'agents', 'helper', 'app', 'api', 'sdk', 'dev', 'pro', 'free', 'kit', 'server', 'client', 'manager', 'run', 'runner', 'the', 'and', 'for', 'with', 'use', 'using', 'bin', 'exe']);

/**
 * True when program `p` is named like the skill (one of `names`): the program is the name or one of its words
 * (`imsg` of `imsg`, `acme` of `acme-notes`), or shares a distinctive word with it (`notes-sync` of
 * `notes-sync-pro`); kind words (`cli`, `tool`, `agent`…) alone do not count.
 */
export function namedLikeSkill(p: string, names: readonly string[]): boolean {
  const program = p.toLowerCase().replace(/\.exe$/, '');
  const flat = program.replace(/[-_.]+/g, '');
  const words = program.split(/[-_.]+/).filter((w) => w.length >= 3 && !KIND_WORDS.has(w));
  return names.some((n) => {
    const parts = n.toLowerCase().split(/[-_.\s]+/).filter(Boolean);
    if (parts.join('-') === program.replace(/[_.]/g, '-') || (flat.length >= 3 && !KIND_WORDS.has(flat) && parts.includes(flat))) return true;
    return words.some((w) => parts.includes(w));
  });
}

/**
 * True when `p` is a program of a product the description names: that name, then `-`, `_` or `.` and the program's
 * own part (`in-toto-run` of in-toto, `tracer.exe` of Tracer). A name is written as one: capitalized, hyphenated,
 * with a digit, or in backticks; a plain word (`notes` of "release notes") names no product. As for a product's
 * daemon, the name has at least 4 letters: MCP, AWS, SQL name standards and platforms that other people's programs
 * are named after (`mcp-cli` is not MCP's own).
 */
function productProgram(p: string, description: string): boolean {
  const lower = p.toLowerCase();
  for (const m of description.matchAll(/`?[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*`?/g)) {
    const token = m[0];
    const w = token.replace(/`/g, '');
    if (w.length < 4 || !(/[A-Z0-9-]/.test(w) || token.startsWith('`'))) continue;
    const stem = w.toLowerCase();
    if (lower.length > stem.length + 1 && lower.startsWith(stem) && /[-_.]/.test(lower[stem.length])) return true;
  }
  return false;
}
