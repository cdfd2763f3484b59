/**
 * What a kind of skill source is: everything code needs to know about where a skill comes from
 * (precedence, whether it can be edited in place, how its ids and labels read) in one value, so callers
 * ask the source instead of comparing scope names.
 */
export interface SourceKind {
  /** The one internal name, stored in `SkillRoot.scope` and `SkillRecord.scope`: `workspace`, `user`, `extension`, `pack`. */
  readonly name: string;
  /** Precedence: lower wins when two skills share a name; equal ranks make them ambiguous. */
  readonly rank: number;
  /** Skills of this kind are never written in place; edits go to an overlay (or a copy in a writable kind). */
  readonly readOnly: boolean;
  /** The heading of this kind's group in the Skills view: `Workspace`, `Extensions`. */
  readonly label: string;
  /** The first part of a skill id: `workspace` in `workspace:pdf`, `plugin` in `plugin:<publisher.ext>:pdf`. */
  readonly idPrefix: string;
  /** Ids carry the root's source between prefix and name (`pack:<pack>:pdf`), since two sources may hold the same name. */
  readonly idHasSource: boolean;
  /**
   * The word users write and read for this kind: in the `skillRoots` setting, `agent-skills list --root <word>:<dir>`
   * and the list's scope column (`project` for the workspace, kept from the first release).
   */
  readonly scopeWord: string;
  /** Skills of this kind live in the opened folders: an untrusted workspace does not get them, and the language server lists their problems. */
  readonly inWorkspace: boolean;
}
