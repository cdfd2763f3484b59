/** The part of `fs` {@link pinBinds} uses. */
export interface BindOpener {
  openSync(path: string, flags: number): number;
  closeSync(fd: number): void;
  fstatSync(fd: number): { isSymbolicLink(): boolean };
  readlinkSync(path: string): string;
  constants: { O_NOFOLLOW: number; O_RDONLY: number };
}

/**
 * Closes the window between the mount plan's check of a bind source (checkedBinds: its real path, just
 * resolved) and bubblewrap's mount of it, in which a folder of the path could be swapped for a link. Each
 * `--bind`/`--ro-bind SOURCE DEST` at the indices `pins` (the option's own index) is opened here as a path
 * descriptor (O_PATH, O_NOFOLLOW), its real path read back from /proc/self/fd must still be SOURCE (not a link,
 * nothing swapped on the way), and the pair becomes `--bind-fd`/`--ro-bind-fd N DEST` (bubblewrap 0.8), N being the
 * descriptor's number in the child: `firstFd` for the first, then on. From here the open descriptor, not the path,
 * is what gets bound (bubblewrap checks after mounting that the mount is that descriptor's file, and closes it).
 * Throws naming the source when one changed; closes what it opened then. Self-contained (only its arguments
 * and globals): the persistent launcher embeds its source text (launcherProgram.ts), as it does descriptors.ts.
 * A `--seccomp FILE` at a pinned index is opened for reading (bubblewrap reads the filter from the descriptor).
 */
export function pinBinds(fs: BindOpener, args: readonly string[], pins: readonly number[], firstFd: number): { args: string[]; fds: number[] } {
  // O_PATH on Linux (every architecture Node runs on): a descriptor that names a file without opening it for I/O.
  const O_PATH = 0o10000000;
  const out = args.slice();
  const fds: number[] = [];
  try {
    for (const i of pins) {
      const option = args[i];
      if (option === '--seccomp') {
        fds.push(fs.openSync(args[i + 1], fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW));
        out[i + 1] = String(firstFd + fds.length - 1);
        continue;
      }
      if (option !== '--bind' && option !== '--ro-bind') throw new Error(`sandbox: argument ${i} of bubblewrap is ${JSON.stringify(option)}, not a bind or filter to pin; nothing was started.`);
      const source = args[i + 1];
      const fd = fs.openSync(source, O_PATH | fs.constants.O_NOFOLLOW);
      fds.push(fd);
      const now = fs.fstatSync(fd).isSymbolicLink() ? 'a link' : fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (now !== source) throw new Error(`sandbox: bind source ${source} changed after it was checked (it is now ${now}); nothing was started. Run the script again; if it happens again, something is changing the runtime's state folder.`);
      out[i] = option === '--bind' ? '--bind-fd' : '--ro-bind-fd';
      out[i + 1] = String(firstFd + fds.length - 1);
    }
  } catch (e) {
    for (const fd of fds) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed.
      }
    }
    throw e;
  }
  return { args: out, fds };
}
