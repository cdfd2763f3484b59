// The one place the core is assembled (like `createLanguageService(init)` of a language service): the VS Code
// extension (once per window), the CLI and the MCP server (once per process) and tests ask this factory, and then
// its methods, for scans, the catalog, the tools and the sandbox status, all over one file-access host; the
// registry, runner, runtime and source readers it wires stay inside it. test/build/assembly.test.ts counts the calls
// and holds that no front end reaches past the methods.
import * as path from 'node:path';
import { SkillCatalog } from './catalog/skillCatalog';
import { createScriptRunner, type ScriptRunner } from './exec/scriptRunner';
import type { ScriptRunnerOptions } from './exec/options';
import type { SandboxStatus } from './exec/sandboxStatus';
import { localDisk } from './host/localDisk';
import type { SyncWritableHost } from './host/fileWrites';
import { createSkillRegistry, type SkillIndex, type SkillRegistry } from './registry/skillRegistry';
import type { RegistrySnapshot, SkillRecord, SkillRoot } from './registry/registryTypes';
import { artifactReaderOf } from './runtime/execAdapters';
import { skillSourceOf } from './runtime/registrySource';
import { createSkillsRuntime, type SkillsRuntime, type SkillsRuntimeOptions } from './runtime/skillsRuntime';
import { skillToolsOf, type SkillTools } from './runtime/skillTools';
import type { ScriptExecutor, SkillSource } from './runtime/runtimeTypes';
import type { RuleConfig } from './skill/ruleConfig';
import type { ValidationMode } from './skill/skillTypes';
import { allSources } from './sources/sourceKinds';
import { DEFAULT_READERS, type SkillSourceReader, type SourceReaderSpec } from './sourceReaders';
import { filteredHost, openReaders, runsThrough, servedSource } from './sourceReaders/sourceReader';

/** Where the core's notes go: the extension's output channel, the CLI's stderr; none by default (the core never writes to a stream). */
export interface AgentSkillsLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that drops everything. */
export const silentLogger: AgentSkillsLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** What a front end may change after assembly (VS Code settings): the runner and runtime are rebuilt from it on next use. */
export type AgentSkillsRuntimeConfig = Pick<AgentSkillsInit, 'runner' | 'executor' | 'source' | 'runtime' | 'pluginDataDir'>;

/** What {@link createAgentSkills} builds from; only `stateDir` (and the roots, or `refresh(roots)` later) is needed. */
export interface AgentSkillsInit {
  /** Folder of `sessions/`, `audit.jsonl`, `exec/` (script runs), `revisions/` and `overlays/`. */
  stateDir: string;
  /** Roots to scan (see `defaultSkillRoots`); also the catalog's base roots. */
  roots?: readonly SkillRoot[];
  /**
   * The one file access of every part: the registry's scan, the runtime's reads, the catalog's reads and edits,
   * revisions, overlays, sessions and the audit log, the script runner's reading of skills (default the local
   * disk; the parts take no host of their own). Only what a script itself needs on a real disk (its snapshot,
   * workspace, outputs) is not under it.
   */
  host?: SyncWritableHost;
  /** Validation mode of the scan (default lenient). */
  mode?: ValidationMode;
  /** Rule settings over each writable root's `.agent-skills.yaml` (VS Code's `agentSkills.validation.rules`). */
  ruleOverrides?: () => RuleConfig | undefined;
  /**
   * Script runner options; `resolveSkillRoot` defaults to the registry's skills, `files` to `host`. `stateDir` (the
   * snapshots and workspaces a script's process runs in, on the local disk whatever the host) defaults to
   * `<stateDir>/exec`: give one on the disk when `host` is not the local disk.
   */
  runner?: Omit<Partial<ScriptRunnerOptions>, 'files'>;
  /**
   * Puts a gate in front of the runner (the extension refuses runs in an untrusted workspace); default the runner.
   * Returning undefined leaves the runtime without an executor (an MCP server started without --allow-scripts).
   */
  executor?: (runner: ScriptRunner) => ScriptExecutor | undefined;
  /** Where the runtime reads skills from before the sources' served skills join; default the registry's usable skills. */
  source?: SkillSource;
  /** Runtime options beyond what the factory wires (load mode, budgets, tool names ...). */
  runtime?: Omit<SkillsRuntimeOptions, 'source' | 'stateDir' | 'executor' | 'artifacts' | 'files'>;
  /**
   * The sources a front end configured beyond the roots (connected MCP servers, skill packs, the packages' filter),
   * each made by its kind's file in `src/core/sourceReaders/`. Kinds not given get their default reader (the
   * plugin run hook, the refusal of MCP-served scripts): the factory is the only place a source is wrapped.
   */
  sources?: readonly SourceReaderSpec[];
  /** Where packs are downloaded and unpacked, on this machine's disk (default `<stateDir>/packs`; needed when `host` is not local). */
  packCacheDir?: string;
  /** Where Agent Plugins keep their `PLUGIN_DATA` folders, one per plugin name and install place (default `<stateDir>/plugin-data`). */
  pluginDataDir?: string;
  /** Where the core's notes go (default none). */
  logger?: AgentSkillsLogger;
}

/**
 * The assembled core, as every front end sees it: what the surfaces ask of it (scan, list, catalog, tools, sandbox
 * status), never its parts. The registry, runner, runtime and readers stay inside the factory, so the order they are
 * built and scanned in is decided here once (test/build/assembly.test.ts fails on a field that hands one out, and on a
 * front end that reaches past these methods). The runtime and runner are built on first use, so a front end that
 * only lists or edits creates neither.
 */
export interface AgentSkills {
  /** The one file access every part reads and writes through (with each source's file filter in front). */
  readonly host: SyncWritableHost;
  /** The logger it was given: front ends log through it, so one process or window has one. */
  readonly log: AgentSkillsLogger;
  /** Scans the roots (from now on `roots`, when given) and returns what was found; changes reach `skills.onDidChange`. */
  refresh(roots?: readonly SkillRoot[]): Promise<RegistrySnapshot>;
  /** Rereads one skill folder when its parent is one of the roots (created, changed or deleted); anything else is ignored. */
  refreshSkill(dir: string): Promise<void>;
  /** The skills of the last scan, read-only: views list them, resolve names and follow changes through it. */
  readonly skills: SkillIndex;
  /** The runSkill/updateSkill catalog over the same scan (no second one); `roots` when the base roots changed since init. */
  catalog(options?: { roots?: readonly SkillRoot[] }): Promise<SkillCatalog>;
  /**
   * Sessions and the skill tools, as the current settings build them (on first use): a facade over the runtime
   * (runtime/skillTools.ts), the same object until `reconfigure`; the runtime itself, its source and its audit log
   * stay inside.
   */
  tools(): SkillTools;
  /** What the tools serve: the scanned (or given) skills with every source's served skills joined. */
  served(): readonly SkillRecord[];
  /** Whether a script would run sandboxed, from the script runner's own probe. */
  sandboxStatus(): Promise<SandboxStatus>;
  /** The local folder a `run://<id>/...` reference names, while that run's outputs are kept. */
  resolveRunRef(ref: string): string | undefined;
  /** Waits until the script runner's background work (the next spare workspace) is done. */
  idle(): Promise<void>;
  /** Makes every source's folders ready (packs mounted; again only when their specs changed). */
  prepareSources(): Promise<void>;
  /** The folders the sources list (mounted packs) as of the last `prepareSources`: the scan reads them beside the base roots. */
  sourceRoots(): SkillRoot[];
  /**
   * New runner and runtime options (a settings change): waits for the current runtime's pending writes, then the
   * next `tools()` builds them anew over the same scan, host and state folder.
   */
  reconfigure(config: AgentSkillsRuntimeConfig): Promise<void>;
  /** Waits for pending session writes and audit lines. */
  flush(): Promise<void>;
  /** Flushes and lets go of the runner, runtime and readers; the next use would build the runner and runtime again. */
  dispose(): Promise<void>;
}

export function createAgentSkills(first: AgentSkillsInit): AgentSkills {
  let init = first;
  const log = init.logger ?? silentLogger;
  // The readers are opened before the host and registry exist (a reader filters the host): they read both lazily.
  let host: SyncWritableHost;
  let registry: SkillRegistry;
  const readers: SkillSourceReader[] = openReaders(allSources(), DEFAULT_READERS, init.sources ?? [], {
    stateDir: init.stateDir,
    registry: { rootOf: (dir) => registry.rootOf(dir) },
    get host() {
      return host;
    },
    get pluginDataDir() {
      return init.pluginDataDir ?? path.join(init.stateDir, 'plugin-data');
    },
    packCacheDir: init.packCacheDir,
    log,
  });
  host = filteredHost(readers, init.host ?? localDisk);
  registry = createSkillRegistry({ roots: init.roots ?? [], host, mode: init.mode, ruleOverrides: init.ruleOverrides });
  let runner: ScriptRunner | undefined;
  let runtime: SkillsRuntime | undefined;
  let tools: SkillTools | undefined;
  let source: SkillSource | undefined;
  const getSource = (): SkillSource => (source ??= servedSource(readers, init.source ?? skillSourceOf(registry)));
  const getRunner = (): ScriptRunner =>
    (runner ??= createScriptRunner({
      resolveSkillRoot: (name) => resolveQuiet(registry, name),
      files: host,
      ...init.runner,
      // The core's whole state folder (sessions, audit log, handles, MCP caches), not only the runner's part of it.
      privateDirs: [init.stateDir, ...(init.runner?.privateDirs ?? [])],
      stateDir: init.runner?.stateDir ?? path.join(init.stateDir, 'exec'),
    }));
  const getRuntime = (): SkillsRuntime => {
    if (runtime) return runtime;
    const r = getRunner();
    const executor = init.executor ? init.executor(r) : r;
    runtime = createSkillsRuntime({
      ...init.runtime,
      files: host,
      source: getSource(),
      stateDir: init.stateDir,
      // Each source's run hook (a plugin's folders, the refusal of MCP-served skills), whatever gate the front end puts first.
      ...(executor ? { executor: runsThrough(readers, executor) } : {}),
      artifacts: artifactReaderOf(r.artifacts),
    });
    return runtime;
  };
  const prepareSources = async (): Promise<void> => {
    for (const r of readers) await r.prepare?.();
  };
  const sourceRoots = (): SkillRoot[] => readers.flatMap((r) => r.roots?.() ?? []);
  return {
    host,
    log,
    refresh: (roots) => {
      if (roots) registry.setRoots(roots);
      return registry.refresh();
    },
    async refreshSkill(dir) {
      if (registry.rootOf(dir)) await registry.refreshSkill(dir);
    },
    skills: registry,
    async catalog(options = {}) {
      // Sources with folders to make ready (packs) join the roots the catalog scans.
      await prepareSources();
      const base = options.roots ?? init.roots ?? registry.snapshot().roots;
      const extra = sourceRoots().filter((e) => !base.some((b) => path.resolve(b.path) === path.resolve(e.path)));
      if (extra.length) {
        registry.setRoots([...base, ...extra]);
        await registry.refresh();
      }
      return SkillCatalog.open({ roots: [...base, ...extra], registry, host, stateDir: init.stateDir });
    },
    tools: () => (tools ??= skillToolsOf(getRuntime())),
    served: () => getSource().list(),
    sandboxStatus: () => getRunner().sandboxStatus(),
    resolveRunRef: (ref) => runner?.resolveRunRef(ref),
    idle: async () => {
      await runner?.idle();
    },
    prepareSources,
    sourceRoots,
    async reconfigure(config) {
      const old = runtime;
      init = { ...init, runner: config.runner, executor: config.executor, source: config.source, runtime: config.runtime, pluginDataDir: config.pluginDataDir };
      runner = undefined;
      runtime = undefined;
      tools = undefined;
      source = undefined;
      await old?.flush();
    },
    flush: async () => {
      await runtime?.flush();
    },
    async dispose() {
      const old = runtime;
      runner = undefined;
      runtime = undefined;
      tools = undefined;
      await old?.flush();
      for (const r of readers) await r.dispose?.();
    },
  };
}

/** The folder of the skill a name resolves to, or undefined when it resolves to none (the runner then refuses). */
function resolveQuiet(registry: SkillRegistry, name: string): string | undefined {
  try {
    return registry.resolve(name).rootDir;
  } catch {
    return undefined;
  }
}
