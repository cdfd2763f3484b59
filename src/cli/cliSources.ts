// Where a command finds skills, decided once for every command that takes the discovery options (`list`, `search`,
// `prompt`, `eval`, `run`, `mcp` and the catalog commands): the default roots (the current folder as the workspace,
// the home folder's skill folders) unless --no-defaults, the folders named with --root, the Agent Plugins named
// with --plugin or installed for this user. A named folder that cannot be read is said once, naming the flag, the
// path and the fix; when none of the named sources could be read, the command stops there (a usage error, exit 2),
// as `validate` does for a missing path, instead of answering about the folders nobody asked for.
import * as os from 'node:os';
import * as path from 'node:path';
import { parseMcpServerFlag, type McpServerConfig } from '../core/mcp/mcpServerConfig';
import { defaultSkillRoots, type SkillRoot, type SkillScope } from '../core/registry';
import { sourceForScopeWord } from '../core/sources';
import { folderProblem } from './folderProblem';
import { cliPlugins, type CliPlugins } from './pluginFlags';
import { printable } from './terminalText';
import { UsageError } from './usageError';

/** What a command was told to read. */
export interface SourceFlags {
  /** `--root` values as written (`[scope:]<dir>`). */
  roots: readonly string[];
  /** `--plugin` folders as written; a command without the flag leaves it out, and then reads no plugin at all. */
  plugins?: readonly string[];
  noDefaults: boolean;
  /** The command's state folder (plugin data lives under it). */
  stateDir: string;
  enablePluginMcp?: readonly string[];
  /**
   * The other sources named (`--mcp-server`, `--pack`), by the flag that adds one, e.g. `--pack <archive>`, and how
   * many were given: with them the command reads something even when no named folder can be read.
   */
  others?: { flag: string; count: number };
}

/** The skill roots a command reads, and the plugins read for them. */
export interface CliSources {
  roots: SkillRoot[];
  plugins: CliPlugins;
}

/** The skill roots and plugins of `flags`; unreadable named folders are said on stderr, or stop the command. */
export function cliSources(command: string, flags: SourceFlags): CliSources {
  const extraRoots = flags.roots.map(parseRootArg);
  const pluginDirs = flags.plugins ?? [];
  const others = flags.others?.count ?? 0;
  if (flags.noDefaults && extraRoots.length === 0 && pluginDirs.length === 0 && others === 0) {
    const add = ['--root <dir>', ...(flags.plugins ? ['--plugin <dir>'] : []), ...(flags.others ? [flags.others.flag] : [])];
    throw new UsageError(`--no-defaults leaves no folder to scan: add ${add.slice(0, -1).join(', ')}${add.length > 1 ? ' or ' : ''}${add[add.length - 1]}.`);
  }
  const named = [...flags.roots.map((arg, i) => ({ flag: '--root', arg, path: extraRoots[i].path })), ...pluginDirs.map((arg) => ({ flag: '--plugin', arg, path: path.resolve(arg) }))];
  // One line per folder and flag: the same folder named twice with one flag is one problem.
  const problems = new Map<string, string>();
  const keyOf = (flag: string, abs: string) => `${flag}\0${abs}`;
  for (const n of named) {
    const problem = folderProblem(n.path, n.flag === '--plugin' ? 'an Agent Plugin folder (the one holding plugin.json)' : 'a folder of skills (<folder>/<skill-name>/SKILL.md)');
    if (problem) problems.set(keyOf(n.flag, n.path), `${n.flag} ${n.arg}: ${problem}`);
  }
  if (problems.size > 0) {
    const readable = named.filter((n) => !problems.has(keyOf(n.flag, n.path))).length;
    if (readable === 0 && others === 0) throw new UsageError([...problems.values()].join('\n'));
    for (const line of problems.values()) process.stderr.write(`agent-skills ${command}: ${printable(line)}\n`);
  }
  // A missing --root stays a root, as before (the registry reads a missing root as empty). A missing --plugin is left
  // out, so the plugin reader does not say a second time, and wrongly, that the folder has no plugin.json.
  // A command without --plugin (the catalog commands) reads no plugin, not even the installed ones.
  const plugins = flags.plugins
    ? cliPlugins(command, pluginDirs.filter((d) => !problems.has(keyOf('--plugin', path.resolve(d)))), flags.noDefaults, flags.stateDir, flags.enablePluginMcp)
    : { plugins: [], roots: [], mcpServers: [], mcpDeclared: [], mcpNotices: [] };
  const roots = flags.noDefaults ? defaultSkillRoots({ extraRoots }) : defaultSkillRoots({ workspaceFolders: [process.cwd()], homeDir: os.homedir(), extraRoots });
  return { roots: [...roots, ...plugins.roots], plugins };
}

/** The servers named with --mcp-server (`<name>=<url|command>`); a malformed one is a usage error naming it. */
export function mcpServerFlags(values: readonly string[]): McpServerConfig[] {
  return values.map((v) => {
    try {
      return parseMcpServerFlag(v);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  });
}

const PREFIXED = /^([a-z]+):(.*)$/;
const SOURCED = /^([^:]+):(.+)$/;

/** `<dir>` or `project:<dir>` (the workspace source), `user:<dir>`, `plugin:<extension id>:<dir>`, `pack:<name>:<dir>`. */
export function parseRootArg(arg: string): { path: string; scope: SkillScope; source?: string } {
  if (arg.trim() === '') throw new UsageError('--root needs a folder, e.g. --root ./skills or --root user:~/my-skills.');
  const prefixed = PREFIXED.exec(arg);
  const kind = prefixed ? sourceForScopeWord(prefixed[1]) : undefined;
  if (prefixed && kind?.idHasSource) {
    const sourced = SOURCED.exec(prefixed[2]);
    if (!sourced) throw new UsageError(`--root ${arg}: a ${kind.scopeWord} root needs a source, e.g. --root ${kind.scopeWord}:acme.tools:<dir>.`);
    return { scope: kind.name as SkillScope, source: sourced[1], path: path.resolve(expandHome(sourced[2])) };
  }
  if (prefixed && kind && prefixed[2] !== '') return { scope: kind.name as SkillScope, source: 'cli', path: path.resolve(expandHome(prefixed[2])) };
  return { scope: 'workspace', source: 'cli', path: path.resolve(expandHome(arg)) };
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}
