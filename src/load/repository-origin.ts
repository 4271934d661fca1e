/**
 * The repository URL and revision of a fleet whose layout does not state them, from the clone's
 * `origin` remote and checked-out branch (docs/adr/0195-repository-origin.md). One place for every
 * layout: a reader leaves `repoURL` (and `revision`) empty when the repository's own objects say
 * nothing, and this fills them in. A `file://` path is never a repoURL: Argo CD cannot read the
 * laptop's disk, so output that carries one looks right and is wrong.
 */
import type { Finding } from '../model/finding.js';
import type { Fleet } from '../model/fleet.js';
import type { RepositoryOrigin } from '../ports/git-repo.js';
import { isServerURL } from '../model/git-url.js';
import { isPlainObject as isObj } from '../model/merge.js';
import type { RepoFileSystem } from '../ports/filesystem.js';

/** Fills `fleet.repoURL` / `fleet.revision` in place; returns the findings about what could not be filled. */
export function fillRepositoryOrigin(fleet: Fleet, origin: RepositoryOrigin): Finding[] {
  const findings: Finding[] = [];
  if (fleet.repoURL === '' || fleet.repoURL.startsWith('file:')) {
    if (isServerURL(origin.url)) {
      fleet.repoURL = origin.url;
    } else {
      fleet.repoURL = '';
      findings.push({
        severity: 'warning',
        code: 'no-repo-url',
        message: `the repository names no repoURL for the Applications fleetplan generates, and its clone has no origin remote on a Git server${origin.url ? ` (origin is ${origin.url})` : ''}`,
        ...(fleet.file ? { file: fleet.file } : {}),
        hint: 'run fleetplan in a clone of the repository Argo CD reads (git remote add origin https://…), or set the repoURL in the repository',
      });
    }
  }
  if (fleet.revision === '') fleet.revision = origin.branch ?? 'HEAD';
  return findings;
}

/**
 * The URL of the `origin` remote in .git/config, when the repository is a clone that has one, read
 * through the repository's file system (layout readers ask while loading, before the git adapter).
 */
export function originURL(fs: RepoFileSystem): string | undefined {
  if (!fs.exists('.git/config')) return undefined;
  try {
    const text = fs.readText('.git/config');
    const m = /\[remote "origin"\][^[]*?^\s*url\s*=\s*(\S+)/m.exec(text);
    return m?.[1];
  } catch {
    return undefined;
  }
}

/** A GitRepository's ref as one string (`refs/heads/main`, `refs/tags/v1`, `commit <sha>`, `semver <range>`), as source-controller resolves it. */
export function gitRefText(ref: unknown): string | undefined {
  if (typeof ref === 'string') return ref;
  if (!isObj(ref)) return undefined;
  if (typeof ref.commit === 'string') return `commit ${ref.commit}`;
  if (typeof ref.name === 'string') return ref.name;
  if (typeof ref.semver === 'string') return `semver ${ref.semver}`;
  if (typeof ref.tag === 'string') return `refs/tags/${ref.tag}`;
  if (typeof ref.branch === 'string') return `refs/heads/${ref.branch}`;
  return undefined;
}

/** The branch checked out in the clone (.git/HEAD), as `refs/heads/<branch>`. */
export function checkedOutRef(fs: RepoFileSystem): string | undefined {
  let head: string | undefined;
  try {
    head = fs.exists('.git/HEAD') ? fs.readText('.git/HEAD') : undefined;
  } catch {
    head = undefined;
  }
  return /^ref:\s*(refs\/heads\/\S+)/.exec(head ?? '')?.[1];
}
