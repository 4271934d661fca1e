/**
 * Writes rendered files under an output directory, atomically (a file that replaces or joins
 * existing ones), and removes files that an earlier render wrote and this one did not.
 *
 * Every path written or removed stays inside the output directory (docs/adr/0211-output-directory.md):
 * - the output directory is taken at its real place; below it, a directory or file that is a
 *   symlink is refused (an OutputError naming the link and its target), never followed;
 * - only files fleetplan wrote are removed: `.fleetplan-manifest` in the output directory lists
 *   them (read at the start of a run, rewritten at its end), not a header that anyone can copy;
 * - temporary files an interrupted run left (`NAME.<12 hex>.tmp`) are removed from the
 *   directories a run writes or cleans.
 */
import type { Dirent } from 'node:fs';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, readlinkSync, realpathSync, renameSync, rmSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from '../errors/index.js';

/** The list of files fleetplan wrote, in the output directory. */
export const OUTPUT_MANIFEST = '.fleetplan-manifest';
const MANIFEST_HEADER = '# Files fleetplan render wrote here; only these are ever removed by it. Do not edit.';

/** Temporary files of the atomic writes (`<file>.<hex>.tmp`, and the cache's `.<hex>.tmp`). */
const TEMP_FILE = /^(?:.+\.ya?ml)?\.[0-9a-f]{12}\.tmp$/;

export interface WriteStats {
  written: number;
  unchanged: number;
  removed: number;
}

/**
 * One run's view of an output directory: the files an earlier run wrote (from the manifest), the
 * ones this run wrote or removed, and the symlink checks of the directories it touched. `save()`
 * rewrites the manifest; a run that fails before saving keeps the old manifest (the files it wrote
 * that are not listed stay until a run lists them).
 */
export interface OutputSession {
  /** The output directory's real path. */
  readonly root: string;
  /** Absolute path of a relative one (forward slashes), after checking that no part of it is a symlink. */
  path(rel: string): string;
  /** Whether an earlier run wrote this relative path. */
  wrote(rel: string): boolean;
  record(rel: string): void;
  forget(rel: string): void;
  save(): void;
  /**
   * True the first time it is asked about a directory `abs` (checked by `path` before) that was
   * not there when this run first looked: this run makes it, so it holds nothing yet (no listing,
   * no comparison needed). Asked again, false: files written there since are listed as usual.
   */
  claimNew(abs: string): boolean;
  /** Makes the directory `abs` and the missing ones above it (each made once, parents first). */
  makeDir(abs: string): void;
}

export function openOutput(outDir: string): OutputSession {
  const root = realOutputRoot(outDir);
  const previous = readManifest(root);
  const now = new Set(previous);
  const checked = new Set<string>([root]);
  // Paths that were not there when first checked: this run makes them (as real directories), so
  // nothing below them needs a check. In a fresh output directory that is one lstat per directory,
  // not one per file (45,000 files at 1,000 clusters).
  const absent = new Set<string>();
  /** Directories this run made (or found there): no mkdir for them again. */
  const made = new Set<string>();
  const claimed = new Set<string>();
  let dirty = false;
  /**
   * Refuses a symlink at `abs` or at any directory between the root and it. True when `abs` is
   * (at or) below a path that was not there: this run makes it, nothing below it needs a check.
   */
  const guard = (abs: string): boolean => {
    const parts = relative(root, abs).split(sep).filter((p) => p !== '');
    let cur = root;
    for (const part of parts) {
      cur = join(cur, part);
      if (absent.has(cur)) return true;
      if (checked.has(cur)) continue;
      let isLink = false;
      try {
        isLink = lstatSync(cur).isSymbolicLink();
      } catch {
        absent.add(cur);
        return true; // not there: what is made below it is made by this run, as a real directory
      }
      if (isLink) throw linkError(root, cur);
      checked.add(cur);
    }
    return false;
  };
  /** Relative directories `path` has checked: their absolute path, and whether this run makes them. */
  const dirs = new Map<string, { rel: string; abs: string; underNew: boolean }>();
  const rootDir = { rel: '', abs: root, underNew: false };
  let last = rootDir;
  return {
    root,
    path(rel) {
      // The directory part is checked once (rendered files come ~40 to a directory); the name each time.
      const slash = rel.lastIndexOf('/');
      const name = rel.slice(slash + 1);
      // The previous call's directory, compared in place (no new string to hash for a Map lookup).
      let dir = slash < 0 ? rootDir : slash === last.rel.length && rel.startsWith(last.rel) ? last : dirs.get(rel.slice(0, slash));
      if (dir === undefined) {
        const relDir = rel.slice(0, slash);
        if (!safeRelative(relDir)) throw escapes(rel);
        const abs = join(root, ...relDir.split('/'));
        dir = { rel: relDir, abs, underNew: guard(abs) };
        dirs.set(relDir, dir);
      }
      last = dir;
      if (!safeName(name)) throw escapes(rel);
      const abs = dir.abs === sep ? sep + name : dir.abs + sep + name;
      // Below a directory this run makes nothing needs a check; else the name itself (guard's last step).
      if (!dir.underNew) guard(abs);
      return abs;
    },
    wrote: (rel) => previous.has(rel),
    claimNew(abs) {
      if (claimed.has(abs)) return false;
      for (let cur = abs; cur.length > root.length; cur = dirname(cur)) {
        if (absent.has(cur)) {
          claimed.add(abs);
          return true;
        }
      }
      return false;
    },
    makeDir(abs) {
      if (made.has(abs)) return;
      const parent = dirname(abs);
      if (abs !== root && parent.length >= root.length) this.makeDir(parent);
      try {
        // The output directory's own parents may be missing too (`--out a/b/c`).
        mkdirSync(abs, { recursive: abs === root });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      made.add(abs);
    },
    record(rel) {
      const size = now.size;
      if (now.add(rel).size !== size) dirty = true;
    },
    forget(rel) {
      if (now.delete(rel)) dirty = true;
    },
    save() {
      if (!dirty && previous.size === now.size) return;
      const file = join(root, OUTPUT_MANIFEST);
      guard(file);
      mkdirSync(root, { recursive: true });
      const text = `${MANIFEST_HEADER}\n${[...now].sort().map((p) => `${p}\n`).join('')}`;
      writeVerified(root, file, text, `${file}.${randomBytes(6).toString('hex')}.tmp`);
      dirty = false;
    },
  };
}

/** The output directory's real path (it may itself be a link the user chose), or its resolved path when it does not exist yet. */
function realOutputRoot(outDir: string): string {
  const abs = resolve(outDir);
  try {
    return realpathSync.native(abs);
  } catch {
    // Not there yet: the real path of the nearest existing parent, and the rest as given.
    const parent = dirname(abs);
    return parent === abs ? abs : join(realOutputRoot(parent), abs.slice(parent.length + 1));
  }
}

function escapes(rel: string): UsageError {
  return new UsageError(`output path "${rel}" leaves the output directory`, { code: 'output-escape', hint: 'this is a bug in fleetplan: please report it' });
}

/** One segment of a safe relative path (see safeRelative). */
function safeName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('\\') && !name.includes('\0');
}

/** A relative path with forward slashes, no `..`, no empty or `.` segment, not absolute. */
function safeRelative(rel: string): boolean {
  if (rel === '' || rel.startsWith('/') || rel.includes('\\') || rel.includes('\0')) return false;
  return rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

function readManifest(root: string): Set<string> {
  const out = new Set<string>();
  const file = join(root, OUTPUT_MANIFEST);
  let text: string;
  try {
    const st = lstatSync(file);
    if (st.isSymbolicLink()) throw linkError(root, file);
    if (!st.isFile()) return out;
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return out;
  }
  // Lines that are not a safe relative path (an edited or hostile manifest) are ignored.
  for (const line of text.split('\n')) if (!line.startsWith('#') && safeRelative(line)) out.add(line);
  return out;
}

function linkError(root: string, abs: string): UsageError {
  let target = '?';
  try {
    target = readlinkSync(abs);
  } catch {
    // shown as "?"
  }
  const shown = relative(root, abs).split(sep).join('/');
  return new UsageError(`a symlink to ${target} in the output directory: fleetplan does not write or remove files through a link`, {
    code: 'output-symlink',
    location: { file: join(root, shown) },
    hint: `remove the link (rm ${join(root, shown)}) and render again; fleetplan writes only real files and directories under --out`,
  });
}

/** A directory's entries by name (undefined: it does not exist or is not a directory). */
function listDir(dir: string): Map<string, Dirent> | undefined {
  try {
    return new Map(readdirSync(dir, { withFileTypes: true }).map((e) => [e.name, e]));
  } catch {
    return undefined;
  }
}

/**
 * `managedDirs`: directories whose files this render owns. `managedParents`: directories each of
 * whose subdirectories is owned the same way (e.g. `<hub>/provision`, one subdirectory per spoke):
 * a subdirectory this render no longer writes loses the files fleetplan wrote there, and goes when
 * empty. Only files the manifest lists (written by an earlier run) are removed. Without `session`
 * the call opens the output directory and saves its manifest itself.
 */
export function writeTree(
  outDir: string,
  files: readonly { path: string; content: string | Uint8Array }[],
  managedDirs: readonly string[],
  managedParents: readonly string[] = [],
  session?: OutputSession,
): WriteStats {
  const out = session ?? openOutput(outDir);
  const stats: WriteStats = { written: 0, unchanged: 0, removed: 0 };
  /** Every file's absolute path, in order; as a set only when a directory that was there is cleaned. */
  const paths: string[] = [];
  let keep: Set<string> | undefined;
  const made = new Set<string>();
  // The directories this call made, open: their files are created relative to the descriptor (ADR 0294).
  const opened = new Map<string, MadeDir | undefined>();
  // The temporary files' suffix, made when a file replaces or joins existing ones.
  let tmpSuffix: string | undefined;
  // What each directory held before this call, listed once per directory (undefined: it did not
  // exist). Only a file that is there is read to compare: in a fresh or empty output directory no
  // file is read at all (reading every path first was 9% of `render --out` of 5,000 clusters).
  const before = new Map<string, Map<string, Dirent> | undefined>();
  const listing = (dir: string): Map<string, Dirent> | undefined => {
    // A directory this run makes is not listed: it held nothing before (one failed readdir and
    // its exception per directory fewer in a fresh output directory).
    if (!before.has(dir)) before.set(dir, out.claimNew(dir) ? undefined : listDir(dir));
    return before.get(dir);
  };
  let ok = false;
  // The previous file's directory: the same string object again for the next file there (its
  // hash is computed once for the lookups below, not once per file).
  let prevDir = '';
  try {
    for (const f of files) {
      const abs = out.path(f.path);
      paths.push(abs);
      out.record(f.path);
      const slash = abs.lastIndexOf(sep);
      const dir = slash === prevDir.length && abs.startsWith(prevDir) ? prevDir : dirname(abs);
      prevDir = dir;
      const names = listing(dir);
      const entry = names?.get(abs.slice(dir.length + 1));
      if (entry?.isSymbolicLink()) throw linkError(out.root, abs);
      // Contents given as UTF-8 bytes (the writer thread's) are compared as bytes.
      let same = false;
      if (entry?.isFile()) {
        try {
          same = typeof f.content === 'string' ? readFileSync(abs, 'utf8') === f.content : readFileSync(abs).equals(f.content);
        } catch {
          same = false;
        }
      }
      if (same) {
        stats.unchanged++;
        continue;
      }
      if (!made.has(dir)) {
        if (names === undefined) out.makeDir(dir);
        made.add(dir);
      }
      if (names === undefined) {
        // A directory this call made has no old file to keep whole for a reader: written in place,
        // without a temporary file and a rename (~8% of `render --out` into a fresh directory). A
        // failed run leaves at worst a partial file, which the next render rewrites.
        let d = opened.get(dir);
        if (!opened.has(dir)) opened.set(dir, (d = openMadeDir(out.root, dir, abs)));
        if (d) writeInMadeDir(out.root, d, abs, f.content);
        else writeVerified(out.root, abs, f.content);
        stats.written++;
        continue;
      }
      // Atomic: a reader sees the old file or the new one, never half of one.
      writeVerified(out.root, abs, f.content, abs + (tmpSuffix ??= `.${randomBytes(6).toString('hex')}.tmp`));
      stats.written++;
    }
    ok = true;
  } finally {
    // Each directory written through its descriptor is checked again: still where it was made.
    closeMadeDirs(out.root, opened.values(), ok);
  }
  const owned = new Set(managedDirs);
  for (const parent of managedParents) {
    const absParent = out.path(parent);
    // Real subdirectories only: a link there is neither followed nor cleaned.
    for (const e of [...(listing(absParent)?.values() ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) owned.add(`${parent}/${e.name}`);
    }
  }
  for (const dir of [...owned].sort()) {
    const absDir = out.path(dir);
    // A directory that did not exist before this call holds only the files just written.
    if (before.has(absDir) && before.get(absDir) === undefined) continue;
    const names = listDir(absDir);
    if (names === undefined) continue;
    let left = names.size;
    for (const e of [...names.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = join(absDir, e.name);
      const rel = `${dir}/${e.name}`;
      if ((keep ??= new Set(paths)).has(abs)) continue;
      if (e.isFile() && TEMP_FILE.test(e.name)) {
        // An interrupted run's temporary file.
        rmSync(abs, { force: true });
        left--;
      } else if (out.wrote(rel)) {
        out.forget(rel);
        if (e.isSymbolicLink()) throw linkError(out.root, abs);
        if (!e.isFile()) continue;
        removeVerified(out.root, abs);
        stats.removed++;
        left--;
      }
    }
    if (left === 0) rmdirSync(absDir);
  }
  if (!session) out.save();
  return stats;
}

/**
 * Test seam (ADR 0259): called with the absolute path just before a file is created or removed
 * (`beforeOpen`) and before a temporary file is renamed over it (`beforeRename`), so that a test
 * can swap a directory for a symlink at the worst moment. Not for production use.
 */
export const OUTPUT_HOOKS: { beforeOpen?: (abs: string) => void; beforeRename?: (abs: string) => void } = {};

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Where an open descriptor's file really is: Linux's /proc/self/fd link, else undefined (then
 * only the O_NOFOLLOW|O_EXCL open protects, as on other systems).
 */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Writes `content` to `abs` (via `tmp` and a rename when given) so that nothing stays outside the
 * output directory even if a directory on the way is swapped for a symlink after the checks
 * (ADR 0259): the file is created with O_CREAT|O_EXCL|O_NOFOLLOW (never an existing file, never
 * through a final link), written through its descriptor, and where the descriptor's file really is
 * is checked after the write and again after the rename. A file of ours that ended up elsewhere is
 * removed (it is ours: created exclusively, same inode) and the run fails naming the path.
 */
function writeVerified(root: string, abs: string, content: string | Uint8Array, tmp?: string): void {
  const created = tmp ?? abs;
  OUTPUT_HOOKS.beforeOpen?.(abs);
  const fd = openSync(created, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o666);
  /** Fails unless the open file is at `expected` (when the system can tell). */
  const check = (expected: string): void => {
    const at = openedPath(fd);
    if (at !== undefined && at !== expected) throw swapped(root, abs, at);
  };
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    check(created);
    if (tmp !== undefined) {
      OUTPUT_HOOKS.beforeRename?.(abs);
      try {
        renameSync(tmp, abs);
      } catch (e) {
        // The temporary file is not where it was made: a directory on the way was swapped.
        check(created);
        throw e;
      }
      check(abs);
    }
  } catch (e) {
    // Our file, wherever it is now (the descriptor says): never left behind, inside or outside.
    removeIfSame(fd, openedPath(fd) ?? created);
    throw e;
  } finally {
    closeSync(fd);
  }
}

/** From this many files, a directory the run made is written through its descriptor (ADR 0294). */
const VIA_DESCRIPTOR_MIN_FILES = 4;

/**
 * Writes `files` into `abs`, a directory `session` found absent and so makes now (its `claimNew`
 * was true): made with one `mkdir`, then every file created exclusively and checked as the cluster
 * files are (ADR 0259, 0294): through the directory's descriptor when it gets several files, else
 * each on its own descriptor. For `render --leaves` (one directory per app).
 */
export function writeNewDirectory(session: OutputSession, abs: string, files: readonly { name: string; content: string | Uint8Array }[]): void {
  session.makeDir(abs);
  const first = files[0];
  if (first === undefined) return;
  const d = files.length >= VIA_DESCRIPTOR_MIN_FILES ? openMadeDir(session.root, abs, join(abs, first.name)) : undefined;
  let ok = false;
  try {
    for (const f of files) {
      if (!safeName(f.name)) throw escapes(`${relative(session.root, abs)}/${f.name}`);
      const file = abs + sep + f.name;
      if (d) writeInMadeDir(session.root, d, file, f.content);
      else writeVerified(session.root, file, f.content);
    }
    ok = true;
  } finally {
    closeMadeDirs(session.root, [d], ok);
  }
}

/**
 * A directory this run made, open (ADR 0294): `via` (`/proc/self/fd/N/`) names it by its
 * descriptor, so a file created as `via + name` is created in that directory whatever happens to
 * the names on the way to it (as openat(2) does; node has no openat). `names`: the files created.
 */
interface MadeDir {
  abs: string;
  fd: number;
  via: string;
  names: string[];
  /** The first file's absolute path, for messages. */
  first: string;
}

/** Whether /proc/self/fd names open files (Linux); learnt on the first directory. */
let procFd: boolean | undefined;

/**
 * Opens a directory this run just made (O_DIRECTORY|O_NOFOLLOW) and checks on the descriptor that
 * it is at `dir` under the output directory's real path. Undefined where /proc is not there: then
 * each file is written and checked by name (writeVerified).
 */
function openMadeDir(root: string, dir: string, firstFile: string): MadeDir | undefined {
  if (procFd === false) return undefined;
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | O_NOFOLLOW);
  } catch (e) {
    // A link there (put by another process since the check): ELOOP, or ENOTDIR with O_DIRECTORY.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') {
      let link = false;
      try {
        link = lstatSync(dir).isSymbolicLink();
      } catch {
        // gone: the open's error stands
      }
      if (link) throw linkError(root, dir);
    }
    throw e;
  }
  const at = openedPath(fd);
  if (at === undefined) {
    procFd = false;
    closeSync(fd);
    return undefined;
  }
  procFd = true;
  if (at !== dir) {
    closeSync(fd);
    throw swapped(root, firstFile, join(at, basename(firstFile)));
  }
  return { abs: dir, fd, via: `/proc/self/fd/${fd}/`, names: [], first: firstFile };
}

/**
 * Creates `abs` in the open directory `d` (O_CREAT|O_EXCL|O_NOFOLLOW relative to its descriptor)
 * and writes it: one open, the writes and one close; where the directory is, is checked once for
 * all its files (openMadeDir before, closeMadeDirs after).
 */
function writeInMadeDir(root: string, d: MadeDir, abs: string, content: string | Uint8Array): void {
  const name = abs.slice(d.abs.length + 1);
  OUTPUT_HOOKS.beforeOpen?.(abs);
  let fd: number;
  try {
    fd = openSync(d.via + name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o666);
  } catch (e) {
    // Named by its path, not by the descriptor's.
    const err = e as NodeJS.ErrnoException;
    if (typeof err.message === 'string') err.message = err.message.split(d.via + name).join(abs);
    if (err.path !== undefined) err.path = abs;
    if (err.code === 'ELOOP') throw linkError(root, abs);
    throw err;
  }
  d.names.push(name);
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
  } catch (e) {
    d.names.pop();
    try {
      unlinkSync(d.via + name);
    } catch {
      // gone already
    }
    throw e;
  } finally {
    closeSync(fd);
  }
}

/**
 * Closes the directories writeInMadeDir wrote into, after checking that each is still where it
 * was made. One that was moved (its name swapped for a link, or the directory moved away) while
 * its files were written: the files created in it are removed and, unless the call already fails,
 * the run fails naming the first one — as when each file was checked (ADR 0259).
 */
function closeMadeDirs(root: string, dirs: Iterable<MadeDir | undefined>, report: boolean): void {
  let failure: UsageError | undefined;
  for (const d of dirs) {
    if (!d) continue;
    try {
      const at = openedPath(d.fd) ?? d.abs;
      if (at !== d.abs) {
        for (const name of d.names) {
          try {
            unlinkSync(d.via + name);
          } catch {
            // gone already
          }
        }
        failure ??= swapped(root, d.first, join(at, basename(d.first)));
      }
    } finally {
      closeSync(d.fd);
    }
  }
  if (failure && report) throw failure;
}

/** Removes `path` if it is the file open on `fd` (same device and inode). */
function removeIfSame(fd: number, path: string): void {
  try {
    const a = fstatSync(fd);
    const b = lstatSync(path);
    if (a.dev === b.dev && a.ino === b.ino) unlinkSync(path);
  } catch {
    // gone already
  }
}

/**
 * Removes a file fleetplan wrote, after checking on an O_NOFOLLOW descriptor that the path really
 * is that file inside the output directory. Residual risk (ADR 0259): a swap between this check and
 * the unlink; node has no unlinkat relative to a directory descriptor.
 */
function removeVerified(root: string, abs: string): void {
  OUTPUT_HOOKS.beforeOpen?.(abs);
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK | O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw linkError(root, abs);
    throw e;
  }
  try {
    const where = openedPath(fd) ?? abs;
    if (where !== abs) throw swapped(root, abs, where);
    unlinkSync(abs);
  } finally {
    closeSync(fd);
  }
}

function swapped(root: string, abs: string, where: string): UsageError {
  const shown = relative(root, abs).split(sep).join('/');
  return new UsageError(`${shown} resolved to ${where} while it was written: a directory in the output directory was replaced by a symlink during the render; nothing was left there`, {
    code: 'output-symlink',
    location: { file: join(root, shown) },
    hint: 'another process changed the output directory while fleetplan wrote it: remove the link and render again',
  });
}

/**
 * Refuses an output directory that cannot be one: a path that exists and is not a directory, the
 * repository itself or a directory holding it, or one that holds the fleet's own files (`sources`,
 * repository-relative). A directory inside the repository that holds none of them (`rendered/`) is fine.
 */
export function checkOutputDirectory(outDir: string, repoRoot: string, sources: Iterable<string>): void {
  const abs = resolve(outDir);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    st = undefined;
  }
  if (st && !st.isDirectory() && !(st.isSymbolicLink() && isDirectory(abs))) {
    throw new UsageError(`the output directory ${abs} is ${st.isFile() ? 'a file' : 'not a directory'}`, {
      code: 'output-not-directory',
      hint: 'pass a directory (new or one an earlier render wrote) to --out',
    });
  }
  const out = realOutputRoot(abs);
  let repo: string;
  try {
    repo = realpathSync.native(resolve(repoRoot));
  } catch {
    repo = resolve(repoRoot);
  }
  const within = (parent: string, p: string) => {
    const r = relative(parent, p);
    return r === '' || (!r.startsWith('..') && !r.startsWith(sep) && !/^[A-Za-z]:/.test(r));
  };
  if (within(out, repo)) {
    throw new UsageError(`the output directory ${abs} ${out === repo ? 'is the repository' : `holds the repository ${repo}`}: render would write cluster folders among the fleet's own files`, {
      code: 'output-is-repository',
      hint: 'pass a directory of its own to --out, e.g. `--out rendered`',
    });
  }
  if (within(repo, out)) {
    for (const s of sources) {
      if (within(out, join(repo, ...s.split('/')))) {
        throw new UsageError(`the output directory ${abs} holds the fleet's own file ${s}`, {
          code: 'output-is-repository',
          hint: 'pass a directory of its own to --out, e.g. `--out rendered`',
        });
      }
    }
  }
}

function isDirectory(abs: string): boolean {
  try {
    return readdirSync(abs) !== undefined;
  } catch {
    return false;
  }
}
