// Which folder a path of an edited read-only skill (plugin, pack) is taken from, decided once for reading and for
// running: the source's overlay holds the newer revisions of some files, so its copy wins only where it holds a
// file; anything else there (a folder, a leftover) is passed over and the skill folder's entry is used.

/** True when the overlay's entry at a path (its kind, or undefined when absent) is the one to use. */
export function overlayWins(kindInOverlay: string | undefined): boolean {
  return kindInOverlay === 'file';
}
