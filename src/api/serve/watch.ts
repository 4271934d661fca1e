/**
 * Calls back when files under a directory change: fs.watch with `recursive` where the platform
 * has it (macOS, Windows, Linux from Node 20), else a poll of every file's size and mtime.
 * Changes are debounced (an editor's save is several events) and `.git/` internals are ignored
 * except the refs, so that a commit or a checkout reloads too.
 */
import { readdirSync, statSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';

export interface TreeWatcher {
  /** `fs.watch` or `poll`, for the log line and the tests. */
  readonly mode: 'fs.watch' | 'poll';
  close(): void;
}

export interface WatchOptions {
  debounceMs?: number;
  pollMs?: number;
  /** Use polling even where fs.watch works (tests of the fallback). */
  forcePoll?: boolean;
}

/** Whether a change to `rel` (repository-relative, `/`-separated) matters to the fleet view. */
export function relevantChange(rel: string): boolean {
  if (rel === '.git' || rel.startsWith('.git/')) return rel === '.git/HEAD' || rel.startsWith('.git/refs/') || rel === '.git/packed-refs';
  return !rel.split('/').some((part) => part === 'node_modules');
}

export function watchTree(root: string, onChange: () => void, options: WatchOptions = {}): TreeWatcher {
  const debounceMs = options.debounceMs ?? 150;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const changed = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) onChange();
    }, debounceMs);
  };
  let watcher: FSWatcher | undefined;
  if (!options.forcePoll) {
    try {
      watcher = watch(root, { recursive: true, persistent: false }, (_event, name) => {
        const rel = name === null ? '' : String(name).split('\\').join('/');
        if (rel === '' || relevantChange(rel)) changed();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
        startPoll();
      });
    } catch {
      watcher = undefined;
    }
  }
  let poll: NodeJS.Timeout | undefined;
  function startPoll(): void {
    if (closed || poll) return;
    let last = snapshot(root);
    poll = setInterval(() => {
      const now = snapshot(root);
      if (now !== last) {
        last = now;
        changed();
      }
    }, options.pollMs ?? 1000);
  }
  if (!watcher) startPoll();
  return {
    mode: watcher ? 'fs.watch' : 'poll',
    close() {
      closed = true;
      watcher?.close();
      if (poll) clearInterval(poll);
      if (timer) clearTimeout(timer);
    },
  };
}

/** Every relevant file's path, size and mtime, as one string to compare. */
function snapshot(root: string): string {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      if (!relevantChange(r) && !(r === '.git' || r === '.git/refs')) continue;
      try {
        const s = statSync(join(dir, name));
        if (s.isDirectory()) walk(join(dir, name), r);
        else out.push(`${r}\0${s.size}\0${s.mtimeMs}`);
      } catch {
        // Gone between the listing and the stat: the next poll sees it.
      }
    }
  };
  walk(root, '');
  return out.join('\n');
}
