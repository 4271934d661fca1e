/**
 * What source-controller leaves out of a GitRepository artifact (ADR 0411, 0421): its default
 * exclusions (fluxcd/pkg sourceignore: ExcludeVCS, ExcludeExt, ExcludeCI, ExcludeExtra), then the
 * patterns of every `.sourceignore` file of the repository (each scoped to its folder, the root's
 * first, then the folders depth first in lexical order), then the GitRepository's `spec.ignore`
 * (scoped to the root). `spec.ignore` adds to the defaults; a later pattern wins, so `!x` in it
 * brings back what an earlier one left out. Matched as go-git's gitignore matcher matches, file by
 * file (the artifact's walk does not skip an excluded folder): a pattern without a slash matches
 * a name at any depth, one with a slash is anchored to its folder, `dir/` matches a folder, `**`
 * any run of folders. The kustomization Flux generates for a folder lists only what the artifact holds.
 */

interface Pattern {
  domain: readonly string[];
  segs: readonly RegExp[] | null;
  /** Segments, `**` kept as null; only for patterns with a slash. */
  glob: readonly (RegExp | null)[] | null;
  /** The segments as written. */
  raw: readonly string[];
  include: boolean;
  dirOnly: boolean;
}

/** Go's filepath.Match for one path segment, as a RegExp (`*`, `?`, `[…]`, `[^…]`, `\` escapes). */
function segmentRegExp(p: string): RegExp {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\' && i + 1 < p.length) re += escape(p[++i]!);
    else if (c === '[') {
      const end = p.indexOf(']', i + 2);
      if (end < 0) return /(?!)/; // ErrBadPattern: go-git counts it as no match
      let body = p.slice(i + 1, end);
      if (body.startsWith('^')) body = '^' + body.slice(1).replace(/[\]\\]/g, '\\$&');
      else body = body.replace(/[\]\\^]/g, '\\$&');
      re += `[${body}]`;
      i = end;
    } else re += escape(c);
  }
  return new RegExp(`^${re}$`, 's');
}
const escape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function parsePattern(line: string, domain: readonly string[]): Pattern {
  let p = line;
  let include = false;
  if (p.startsWith('!')) {
    include = true;
    p = p.slice(1);
  }
  if (!p.endsWith('\\ ')) p = p.replace(/ +$/, '');
  let dirOnly = false;
  if (p.endsWith('/')) {
    dirOnly = true;
    p = p.slice(0, -1);
  }
  const parts = p.split('/');
  if (p.includes('/')) return { domain, segs: null, glob: parts.map((s) => (s === '**' ? null : segmentRegExp(s))), raw: parts, include, dirOnly };
  return { domain, segs: parts.map(segmentRegExp), glob: null, raw: parts, include, dirOnly };
}

/** go-git gitignore pattern.simpleMatch: the name matches any segment of the path. */
function simpleMatch(re: RegExp, dirOnly: boolean, path: readonly string[], isDir: boolean): boolean {
  for (let i = 0; i < path.length; i++) {
    if (!re.test(path[i]!)) continue;
    return !(dirOnly && !isDir && i === path.length - 1);
  }
  return false;
}

/** go-git gitignore pattern.globMatch. */
function globMatch(glob: readonly (RegExp | null)[], raw: readonly string[], dirOnly: boolean, path0: readonly string[], isDir: boolean): boolean {
  let path = path0;
  let matched = false;
  let traverse = false;
  for (let i = 0; i < glob.length; i++) {
    if (raw[i] === '') {
      traverse = false;
      continue;
    }
    const g = glob[i] ?? null;
    if (g === null) {
      if (i === glob.length - 1) break;
      traverse = true;
      continue;
    }
    if (path.length === 0) return false;
    if (traverse) {
      traverse = false;
      while (path.length > 0) {
        const e = path[0]!;
        path = path.slice(1);
        if (g.test(e)) {
          matched = true;
          break;
        } else if (path.length === 0) matched = false;
      }
    } else {
      if (!g.test(path[0]!)) return false;
      matched = true;
      path = path.slice(1);
    }
  }
  return !(matched && dirOnly && !isDir && path.length === 0) && matched;
}

export class SourceIgnore {
  private readonly patterns: readonly Pattern[];
  constructor(patterns: readonly Pattern[]) {
    this.patterns = patterns;
  }
  /** True when the artifact leaves out the repository path `path` (a folder when `isDir`). */
  ignored(path: string, isDir = false): boolean {
    const segs = path.split('/').filter((s) => s !== '' && s !== '.');
    for (let i = this.patterns.length - 1; i >= 0; i--) {
      const p = this.patterns[i]!;
      if (segs.length <= p.domain.length || p.domain.some((d, j) => segs[j] !== d)) continue;
      const rest = segs.slice(p.domain.length);
      const hit = p.glob ? globMatch(p.glob, p.raw, p.dirOnly, rest, isDir) : simpleMatch(p.segs![0]!, p.dirOnly, rest, isDir);
      if (hit) return !p.include;
    }
    return false;
  }
  /** These patterns followed by those of `text` (gitignore lines) scoped to the folder `dir`. */
  with(text: string, dir = '.'): SourceIgnore {
    return new SourceIgnore([...this.patterns, ...readPatterns(text, dir)]);
  }
}

/** sourceignore.ReadPatterns: one pattern a line, `#` lines and blank lines left out. */
function readPatterns(text: string, dir = '.'): Pattern[] {
  const domain = dir.split('/').filter((s) => s !== '' && s !== '.');
  return text
    .split(/\r?\n/)
    .filter((l) => !l.startsWith('#') && l.trim() !== '')
    .map((l) => parsePattern(l, domain));
}

/** source-controller's defaults (NewDefaultMatcher: VCS patterns, then extensions, CI files and extras). */
export const DEFAULT_SOURCE_IGNORE = new SourceIgnore(
  readPatterns(
    [
      '.git/', '.gitignore', '.gitmodules', '.gitattributes',
      '*.jpg', '*.jpeg', '*.gif', '*.png', '*.wmv', '*.flv', '*.tar.gz', '*.zip',
      '.github/', '.circleci/', '.travis.yml', '.gitlab-ci.yml', 'appveyor.yml', '.drone.yml', 'cloudbuild.yaml', 'codeship-services.yml', 'codeship-steps.yml',
      '**/.goreleaser.yml', '**/.sops.yaml', '**/.flux.yaml',
    ].join('\n'),
  ),
);

/** The file source-controller reads in every folder of the repository. */
export const SOURCE_IGNORE_FILE = '.sourceignore';

/** The part of a repository file system the matcher reads (ports/filesystem RepoFileSystem). */
interface Tree {
  list(path: string): string[];
  isDirectory(path: string): boolean;
  readText(path: string): string;
}

const join = (dir: string, name: string): string => (dir === '.' ? name : `${dir}/${name}`);
const treeIgnores = new WeakMap<Tree, SourceIgnore>();

/** The defaults and the repository's `.sourceignore` files, loaded as LoadIgnorePatterns loads them: a folder's own, then its sub-folders depth first in lexical order (`.git` left out). */
function repositoryIgnore(fs: Tree): SourceIgnore {
  let m = treeIgnores.get(fs);
  if (m) return m;
  m = DEFAULT_SOURCE_IGNORE;
  const walk = (d: string, depth: number) => {
    if (depth > 32) return;
    const entries = [...fs.list(d)].sort();
    const own = join(d, SOURCE_IGNORE_FILE);
    if (entries.includes(SOURCE_IGNORE_FILE) && !fs.isDirectory(own)) m = m!.with(fs.readText(own), d);
    for (const e of entries) if (e !== '.git' && fs.isDirectory(join(d, e))) walk(join(d, e), depth + 1);
  };
  walk('.', 0);
  treeIgnores.set(fs, m);
  return m;
}

/**
 * What the artifact of a GitRepository of this repository leaves out: source-controller's defaults,
 * the repository's `.sourceignore` files, then the GitRepository's `spec.ignore` (ADR 0421).
 */
export function artifactIgnore(fs: Tree, gitRepository: Record<string, unknown> | undefined): SourceIgnore {
  const spec = gitRepository?.spec;
  const ignore = spec !== null && typeof spec === 'object' ? (spec as Record<string, unknown>).ignore : undefined;
  const m = repositoryIgnore(fs);
  return typeof ignore === 'string' ? m.with(ignore) : m;
}

/** True when source-controller's default exclusions leave the repository path `path` out of the artifact. */
export function fluxSourceIgnored(path: string, isDir = false): boolean {
  return DEFAULT_SOURCE_IGNORE.ignored(path, isDir);
}
