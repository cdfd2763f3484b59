/**
 * Shapes of the skills runtime: the interfaces it depends on (skill source, executor, artifacts),
 * and the session state it owns (seed 000's state model plus seed 002's lifecycle and seed 004's
 * load modes and docs selection). Field names that reach the model are snake_case.
 */
import type { CheckedRun, RunRequest } from '../exec/execTypes';
import type { SkillRecord, SkillSourceChanges, SkillSourceCursor } from '../registry/registryTypes';

export type { SkillSourceChanges, SkillSourceCursor };

/** Where the runtime finds skills. The registry satisfies this; tests can build one from temp folders. */
export interface SkillSource {
  /**
   * The usable skill for a name or canonical id, or undefined when none is known. May instead throw an
   * error with `code` `not-found` (and `suggestions`), `ambiguous` or `broken`, as the registry does.
   */
  resolve(nameOrId: string): SkillRecord | undefined;
  /** Every skill the catalog may show (usable ones: status `ok`). */
  list(): readonly SkillRecord[];
  /**
   * Optional: a folder, laid out like the skill's folder, holding newer revisions of some of its files (the
   * catalog's overlay of a read-only plugin or pack skill). Loads, reads and docs take a file from there when it
   * exists, from the skill folder otherwise. Omitted: files are always read from the skill folder.
   */
  overlayDir?(skillId: string): string | undefined;
  /**
   * Optional: called with each tool call's raw input before the tool runs, so a source that fetches content on
   * first use (MCP-served skills) has the skills the call names ready on disk. Throwing refuses the call.
   */
  prepare?(tool: string, input: unknown): Promise<void>;
  /**
   * Optional change feed of `list()`, so the skill index reads only what changed. Without `since`: the cursor of
   * now. With a cursor this source gave: the skills of `list()` added or changed since then, the ids that left it,
   * and the new cursor. Undefined when the source cannot say (not its cursor, too far back, a part that keeps no
   * history): the caller reads the whole `list()` again.
   */
  changes?(since?: SkillSourceCursor): SkillSourceChanges | undefined;
}

/** One execution request: the exec engine's own request type (the runtime fills in the fields it knows). */
export type ExecRequest = RunRequest;

/** The part of the exec engine's `RunResult` the runtime reads; the rest passes through to the model. */
export interface ExecResultLike {
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
}

/** Runs skill scripts. The exec engine's `createScriptRunner(...)` satisfies this. */
export interface ScriptExecutor {
  run(request: ExecRequest): Promise<ExecResultLike>;
  /**
   * The checks `run` makes before staging anything, without running: throws what `run` would throw for them (the
   * runner's `check`). Required, so a wrapper cannot drop it: a front end asks its user only about a run that
   * passes it (a wrapper puts its gate in front of both with `guardedExecutor`).
   */
  check(request: ExecRequest): Promise<CheckedRun | void>;
  /** Settles once background work (e.g. the next run's workspace being built) is done; `flush()` waits for it. */
  idle(): Promise<void>;
}

/** One artifact version's bytes. */
export interface ArtifactContent {
  name: string;
  version: number;
  mime_type?: string;
  bytes: Uint8Array;
}

/** Reads saved artifacts for `read("artifact://name[@version]")`. */
export interface ArtifactReader {
  /** The latest version when `version` is undefined; undefined when there is no such artifact. In `scope`'s store when given (RunRequest.artifactScope). */
  read(name: string, version?: number, scope?: string): Promise<ArtifactContent | undefined>;
}

/**
 * How long loaded content stays in the prompt (seed 004):
 * `turn` until the next user turn begins, `once` for the next model call only, `session` until unloaded.
 */
export type LoadMode = 'turn' | 'once' | 'session';

/** Seed 002's lifecycle, as far as a session can observe it. Skills never loaded are `discovered`. */
export type LifecycleState = 'discovered' | 'loaded' | 'executing' | 'completed';

/** `*` selects every doc of the skill. */
export type DocsSelection = string[] | '*';

/** One loaded skill in a session. */
export interface ActiveSkill {
  name: string;
  /** The registry id it resolved to, e.g. `workspace:pdf`. */
  id: string;
  /** `sha256:<hex>` of SKILL.md when it was loaded. */
  digest: string;
  location: string;
  root_dir: string;
  /** Docs selected for injection (paths relative to the skill root). */
  docs: DocsSelection;
  /** ISO time of the load. */
  loaded_at: string;
  /** The turn number of the load (see `SessionState.turn`). */
  loaded_turn: number;
  /** Tool call id of the load that loaded it, when the host passed one. */
  load_call_id?: string;
  /** Tool call id of the last call that changed its docs (load with docs, or select_docs). */
  docs_call_id?: string;
  /** `once` mode: the content has been shown to one model call and is no longer injected. */
  offloaded?: boolean;
}

/** One conversation's skill state. Persisted as JSON. */
export interface SessionState {
  id: string;
  created_at: string;
  updated_at: string;
  load_mode: LoadMode;
  /** Increments on every `beginTurn`. */
  turn: number;
  /** ISO time the current turn began; recency ranking only counts uses before it, so a tool loop sees a stable catalog. */
  turn_started_at: string;
  /** The user's request of the current turn, for catalog ranking. */
  request?: string;
  /** Loaded skills, most recently loaded last. */
  active_skills: ActiveSkill[];
  /** Lifecycle per skill name; absent names are `discovered`. */
  lifecycle: Record<string, LifecycleState>;
  /** ISO time each skill was last used (loaded, read, run) in this session. */
  last_used: Record<string, string>;
}

/** A change to the sessions, for listeners such as the tree view. */
export interface SessionEvent {
  kind: 'created' | 'updated' | 'cleared' | 'deleted';
  sessionId: string;
  /** What happened, e.g. `load`, `unload`, `begin-turn`, `run-start`. */
  reason: string;
  /** The state after the change (absent for `deleted`). */
  session?: SessionState;
}

/** A listener registration; call `dispose()` to stop listening. */
export interface Disposable {
  dispose(): void;
}
