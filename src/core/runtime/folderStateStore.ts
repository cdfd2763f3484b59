// The default store of MCP state handles (sessionStateStore.ts): one file per session in the state folder, saved
// compare-and-set under a lock file every process over the folder shares, written by temp file and rename.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { WritableHost } from '../host/fileWrites';
import { asBuffer, type FileStamp } from '../host/skillsHost';
import { copyStored, decodeStored, encodeKept, GENERATION_HEAD_BYTES, generationOf, MAX_STATE_BYTES, SIGNING_KEY_BYTES, signingKeyOf, STATE_TTL_MS, StateStoreError, storedExtras, type KeptEncoding, type SessionStateStore, type StoredSession } from './sessionStateStore';

/** How long a save waits for another process's lock on the same session file before it fails (ms). */
const FOLDER_LOCK_TIMEOUT_MS = 5000;
/** Most used-key files one claim looks at, and removes, when sweeping expired ones (see folderStateStore's claimOnce). */
const SWEEP_LOOKS = 16;
const SWEEP_REMOVALS = 4;
/** Most session files whose last content the folder store remembers with their stamp (least recently used leave first). */
const FOLDER_KNOWN = 1000;

/** One of a session's two files in the state folder, with its stamp, bytes and generation. */
interface SlotRead {
  file: string;
  bytes: Buffer;
  generation: number;
  mtimeMs: number;
}

/**
 * The default store: one JSON file per handle under `<stateDir>/handles`, in one of two names, `<key>.json` and
 * `<key>.b.json`. A save never replaces a file in place: under the session's lock (`<key>.json.lock`, shared by every
 * process over the folder) it reads the stored generation, and when it is the one expected writes the new state
 * under the name not in use (temp + rename onto a free name) and only then removes the old one. So a reader, which
 * takes no lock, always finds a whole state (the newer of the two files when it sees both), and a process killed at
 * any point of a save leaves the previous or the new state, never none. Renaming onto an existing file is what this
 * avoids: ext4 (auto_da_alloc) starts writing the new file's data to disk on such a rename, which cost ~2 ms a call.
 * Nothing is flushed: a power loss (not a process crash) may lose sessions saved in the last seconds before it, which
 * then read as unknown or unusable and their clients start new ones. A file whose stamp (inode, size, mtime) is the
 * one last seen here is not read again outside the lock: every save makes a new inode.
 */
export function folderStateStore(stateDir: string, files: WritableHost, now: () => number = Date.now): SessionStateStore {
  const dir = path.join(stateDir, 'handles');
  const name = `state folder ${dir}`;
  // By file: its stamp, bytes and what they decode to (set once decoded, or by the save that wrote them), so a
  // session used from this process is neither read nor parsed again while no other process saves it.
  // And for a file this process wrote, its encoding: the next save of the session reuses its audit entries' bytes.
  const known = new Map<string, { stamp: string; bytes: Buffer; decoded?: StoredSession; encoding?: KeptEncoding }>();
  let madeDir = false;
  let signing: Buffer | undefined;
  const slotsOf = (key: string): [string, string] => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new StateStoreError(`${name}: '${key.slice(0, 80)}' is not a session key (64 hex digits).`);
    return [path.join(dir, `${key}.json`), path.join(dir, `${key}.b.json`)];
  };
  const stampOf = (s: FileStamp) => `${s.dev ?? ''}:${s.ino ?? ''}:${s.size}:${s.mtimeMs}`;
  const remember = (file: string, stamp: string, bytes: Buffer, decoded?: StoredSession, encoding?: KeptEncoding) => {
    known.delete(file);
    known.set(file, { stamp, bytes, decoded, encoding });
    for (const k of known.keys()) {
      if (known.size <= FOLDER_KNOWN) break;
      known.delete(k);
    }
  };
  /**
   * One file as `read` says (undefined when it is not there, also when it went between the stat and the read):
   * `cached`, its content, not read again when its stamp is the one last seen here; `fresh`, its content read now;
   * `head`, only the bytes of its generation, read now; `compare`, what a save compares under the lock: the
   * generation of the content last seen here when the stamp is the one it had (no read), else `head`.
   */
  const readSlot = async (file: string, read: 'cached' | 'fresh' | 'head' | 'compare'): Promise<SlotRead | undefined> => {
    const unreadable = (e: unknown) => new StateStoreError(`${name}: ${file} cannot be read (${(e as Error).message.slice(0, 300)}); delete it (the client starts a new session).`);
    const overBound = (size: number) => new StateStoreError(`${name}: ${file} is ${size} bytes, over the ${MAX_STATE_BYTES}-byte bound; it was not read. Delete it (the client starts a new session).`);
    if (read === 'head') {
      let got;
      try {
        // One open, fstat and read of 32 bytes: the stamp comes with it.
        got = await files.readFile(file, { range: { offset: 0, length: GENERATION_HEAD_BYTES } });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw unreadable(e);
      }
      // An empty file is what a power loss leaves of a save not yet on disk (a save never writes one): no session.
      if (!got || got.size === 0) return undefined;
      if (got.size > MAX_STATE_BYTES) throw overBound(got.size);
      const bytes = asBuffer(got.bytes);
      return { file, bytes, generation: generationOf(bytes.toString('utf8')), mtimeMs: got.mtimeMs };
    }
    const stamp = await files.stat(file);
    if (!stamp || stamp.size === 0) return undefined;
    if (stamp.size > MAX_STATE_BYTES) throw overBound(stamp.size);
    const seen = known.get(file);
    if (read === 'compare') {
      // A file at a session's name is never changed in place, only replaced by a save (a new inode): the same stamp
      // is the same content. Another process's save, or a file written by hand, has another stamp and is read.
      if (seen?.stamp !== stampOf(stamp)) return readSlot(file, 'head');
      return { file, bytes: seen.bytes, generation: generationOf(seen.bytes.subarray(0, GENERATION_HEAD_BYTES).toString('utf8')), mtimeMs: stamp.mtimeMs };
    }
    let bytes = read === 'cached' && seen?.stamp === stampOf(stamp) ? seen.bytes : undefined;
    if (!bytes) {
      let got;
      try {
        got = await files.readFile(file, { maxBytes: MAX_STATE_BYTES });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw unreadable(e);
      }
      if (!got) return undefined;
      // Read after the stat: the bytes are at least as new as the stamp, so a later stamp never pairs with older bytes.
      bytes = asBuffer(got.bytes);
      remember(file, stampOf(stamp), bytes);
    }
    return { file, bytes, generation: generationOf(bytes.subarray(0, GENERATION_HEAD_BYTES).toString('utf8')), mtimeMs: stamp.mtimeMs };
  };
  /** Both files of a session, the newer first (the one a save wrote last; the other, if any, is being replaced or was left by a crash). */
  const readSlots = async (key: string, read: 'cached' | 'fresh' | 'head' | 'compare'): Promise<SlotRead[]> => {
    const got = (await Promise.all(slotsOf(key).map((f) => readSlot(f, read)))).filter((s): s is SlotRead => s !== undefined);
    return got.sort((a, b) => b.generation - a.generation);
  };
  const removeFile = async (file: string) => {
    known.delete(file);
    await files.remove(file);
  };
  const locked = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const lock = `${slotsOf(key)[0]}.lock`;
    try {
      if (!madeDir) await files.mkdir(dir);
      madeDir = true;
      // On every call's path: linked to this process's kept pid file (one file creation fewer a save).
      return await files.withLock(lock, fn, { timeoutMs: FOLDER_LOCK_TIMEOUT_MS, keepOwnerFile: true });
    } catch (e) {
      madeDir = false;
      if (e instanceof StateStoreError) throw e;
      throw new StateStoreError(`${name}: the state of session ${key.slice(0, 16)}… was not saved (${(e as Error).message.slice(0, 300)}).`);
    }
  };
  /** Whether a used key's file still holds its claim: younger than its own recorded lifetime (or `ttlMs`, for a file without one). */
  const claimLive = async (file: string, ttlMs: number): Promise<boolean> => {
    const seen = await files.stat(file);
    if (!seen) return false;
    return now() - seen.mtimeMs <= Math.max(ttlMs, await recordedTtl(file));
  };
  const recordedTtl = async (file: string): Promise<number> => {
    let got;
    try {
      got = await files.readFile(file, { maxBytes: 32 });
    } catch {
      return 0; // gone or unreadable: no recorded lifetime
    }
    const n = got ? Number(asBuffer(got.bytes).toString('utf8')) : NaN;
    return Number.isSafeInteger(n) && n > 0 ? n : 0;
  };
  /**
   * Removes used keys' files past their lifetime, a few per claim: at most {@link SWEEP_LOOKS} files looked at (from a
   * random place in the listing) and {@link SWEEP_REMOVALS} removed, each under its key's lock and only when, read
   * again there, it is still expired. A claim of that key holds the same lock, so it sees the file or no file, both of
   * which it treats alike (expired is free): a sweep never frees a live claim. Each claim adds one file and can
   * remove several, so the folder stays about as large as the claims of one lifetime.
   */
  const sweepUsed = async (usedDir: string, justClaimed: string, ttlMs: number) => {
    const names = ((await files.readDirectory(usedDir)) ?? []).map((e) => e.name).filter((n) => /^[0-9a-f]{64}$/.test(n) && n !== justClaimed);
    const start = names.length ? randomBytes(4).readUInt32BE(0) % names.length : 0;
    let removed = 0;
    for (let i = 0; i < Math.min(names.length, SWEEP_LOOKS) && removed < SWEEP_REMOVALS; i++) {
      const file = path.join(usedDir, names[(start + i) % names.length]);
      const seen = await files.stat(file);
      if (!seen || now() - seen.mtimeMs <= ttlMs) continue; // the recorded lifetime is at least the claim's: read only for the old
      const gone = await files.withLock(`${file}.lock`, async () => {
        if (!(await files.stat(file)) || (await claimLive(file, ttlMs))) return false;
        await files.remove(file);
        return true;
      }, { timeoutMs: FOLDER_LOCK_TIMEOUT_MS });
      if (gone) removed++;
    }
  };
  return {
    name,
    async load(key) {
      let slots = await readSlots(key, 'cached');
      // Neither file seen: a save may have written one and removed the other between the two looks. Under the lock
      // no save is under way, so the answer is final (only a session that is not there pays for it).
      if (!slots.length && (await files.stat(dir, { folders: true }))) slots = await locked(key, () => readSlots(key, 'fresh'));
      const newest = slots[0];
      if (!newest) return undefined;
      if (now() - newest.mtimeMs > STATE_TTL_MS) {
        await locked(key, async () => {
          for (const s of await readSlots(key, 'head')) if (now() - s.mtimeMs > STATE_TTL_MS) await removeFile(s.file);
        });
        return undefined;
      }
      const seen = known.get(newest.file);
      if (seen?.bytes === newest.bytes && seen.decoded) return { ...copyStored(seen.decoded), generation: newest.generation };
      const decoded = decodeStored(name, key, newest.bytes);
      if (seen?.bytes === newest.bytes) seen.decoded = copyStored(decoded);
      return decoded;
    },
    async save(key, session, expected) {
      const [first, second] = slotsOf(key);
      // The session's last save from this process, if still known: whichever file it wrote (a hint only: what it
      // reuses is checked entry by entry; the compare under the lock decides whether the save goes ahead).
      const encoding = known.get(first)?.encoding ?? known.get(second)?.encoding;
      const kept = encodeKept(name, session, expected + 1, encoding);
      const { bytes, audit } = kept;
      return locked(key, async () => {
        // Looked at again under the lock: the generation compared must be the stored one (read again unless the
        // file is the very one this process last saw: its stamp says so without opening it).
        const [current, older] = await readSlots(key, 'compare');
        if ((current?.generation ?? 0) !== expected) return false;
        const target = current?.file === first ? second : first;
        // A file still under the free name (a save killed before its removal) goes first, so the write renames onto no file.
        if (older) await removeFile(older.file);
        // Not flushed to disk on the call's path (as the runtime's own session files): see above for what a power loss costs.
        await files.writeFile(target, bytes, { durable: false });
        const stamp = await files.stat(target);
        // Kept as given, not copied: the caller gives the session up with the save (SessionStateStore.save); a load copies.
        if (stamp) remember(target, stampOf(stamp), bytes, { state: session.state, audit, ...storedExtras(session) }, kept);
        if (current) await removeFile(current.file);
        return true;
      });
    },
    async remove(key) {
      await locked(key, async () => {
        for (const file of slotsOf(key)) await removeFile(file);
      });
    },
    async signingKey() {
      if (signing) return signing;
      const file = path.join(dir, 'signing.key');
      const read = async () => {
        const got = await files.readFile(file, { maxBytes: 1024 });
        return got ? signingKeyOf(file, asBuffer(got.bytes).toString('utf8')) : undefined;
      };
      // Made once under a lock every process over the folder takes, readable by this user only.
      signing = (await read()) ?? (await files.mkdir(dir), await files.withLock(`${file}.lock`, async () => {
        const made = await read();
        if (made) return made;
        const fresh = randomBytes(SIGNING_KEY_BYTES);
        await files.writeFile(file, fresh.toString('hex'), { mode: 0o600 });
        return fresh;
      }, { timeoutMs: FOLDER_LOCK_TIMEOUT_MS }));
      return signing;
    },
    async claimOnce(key, ttlMs) {
      slotsOf(key); // checks it is 64 hex digits
      const usedDir = path.join(dir, 'used');
      const file = path.join(usedDir, key);
      await files.mkdir(usedDir);
      const claimed = await files.withLock(`${file}.lock`, async () => {
        if (await claimLive(file, ttlMs)) return false;
        // The file holds its own lifetime, so a later claim's sweep expires it by that, not by its own.
        await files.writeFile(file, String(ttlMs), { durable: false });
        return true;
      }, { timeoutMs: FOLDER_LOCK_TIMEOUT_MS });
      // After the claim's lock is let go (a sweep takes other keys' locks: never two at once).
      if (claimed) await sweepUsed(usedDir, key, ttlMs).catch(() => undefined);
      return claimed;
    },
    async close() {},
  };
}
