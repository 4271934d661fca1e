/**
 * Choosing a repository's layout among readers in detection order (docs/adr/0196-honest-layout-detection.md),
 * apart from the readers themselves: ./index.ts chooses among every reader, ./native-choice.ts
 * among the same layouts as they answer for a repository with fleet.yaml, without loading the
 * other layouts' readers (docs/adr/0397-render-out-lazy-layout-readers.md).
 */
import type { Layout } from '../model/fleet.js';
import type { Finding } from '../model/finding.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { RepositoryOrigin } from '../ports/git-repo.js';
import type { LoadResult } from '../load/native.js';
import type { RuleDefinition } from '../validate/index.js';
import type { HelmfileStateValues } from '../load/helmfile-state-values.js';

export interface LoadContext {
  origin?: RepositoryOrigin;
  helmfileEnvironment?: string;
  /** helmfile's `--state-values-file`/`--state-values-set`, for the top-level helmfiles (ADR 0405). */
  helmfileStateValues?: HelmfileStateValues;
  /** Digest each local chart's files, for diff (ADR 0395; LoadOptions.helmfileChartDigests). */
  helmfileChartDigests?: boolean;
  /** The variables helmfile's `env`/`requiredEnv` read (LoadOptions.helmfileEnv). */
  helmfileEnv?: Record<string, string>;
}

/** What choosing a layout asks of a reader: whether the repository is its, and why or why not. */
export interface LayoutDetector {
  layout: Layout;
  /** True when the repository looks like this layout. */
  detect(fs: RepoFileSystem): boolean;
  /**
   * The files that look like this layout, whether or not `detect` takes the repository, so that
   * the plan can say which layout was chosen over which, and what of a layout was left unread.
   */
  markers?(fs: RepoFileSystem): string[];
  /** When `detect` says no although there are markers: what is missing. */
  missing?(fs: RepoFileSystem): string;
  /** When this layout is chosen although `other` detects too: why (said after "comes first"). */
  over?(fs: RepoFileSystem, other: Layout): string | undefined;
}

export interface LayoutReader extends LayoutDetector {
  /**
   * `origin`: the clone's origin remote and branch, for a layout whose installer reads them (Validated Patterns);
   * `helmfileEnvironment`: the helmfile environment whose values helmfile templates are rendered with (default `default`).
   */
  load(fs: RepoFileSystem, context?: LoadContext): LoadResult;
  /** Validation rules of this layout's own files and conventions (they run on every fleet and check the layout first). */
  rules: readonly RuleDefinition[];
}

export function shortList(files: readonly string[]): string {
  return files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
}

/**
 * The first of `readers` whose defining files are there, and `info` findings that say which was
 * chosen, which other layouts have markers in the repository and why they were not used;
 * undefined when no reader takes the repository.
 */
export function chooseAmong<R extends LayoutDetector>(fs: RepoFileSystem, readers: readonly R[]): { reader: R; findings: Finding[] } | undefined {
  const r = readers.find((x) => x.detect(fs));
  if (!r) return undefined;
  const findings: Finding[] = [];
  const mine = r.markers?.(fs) ?? [];
  const others: string[] = [];
  for (const x of readers) {
    // The specific layouts read Argo CD objects themselves: they are shortcuts of the argocd reader.
    if (x === r || x.layout === 'argocd') continue;
    const m = x.markers?.(fs) ?? [];
    if (m.length === 0) continue;
    const over = x.detect(fs) ? r.over?.(fs, x.layout) : undefined;
    const why = x.detect(fs) ? `${r.layout} comes first${over ? `: ${over}` : ''}` : x.missing?.(fs) || 'its defining files are missing';
    others.push(`${x.layout} (${shortList(m)}): not used, ${why}`);
    if (!x.detect(fs)) {
      for (const file of m) {
        findings.push({ severity: 'info', code: 'not-read', message: `${file} looks like the ${x.layout} layout, which this repository is not (${why}); fleetplan did not read it`, file, hint: `if it is left over, delete it; else add what the ${x.layout} layout needs` });
      }
    }
  }
  if (others.length > 0 || r.layout === 'argocd') {
    findings.push({
      severity: 'info',
      code: 'layout-chosen',
      message: `read as the ${r.layout} layout${mine.length ? ` (${shortList(mine)})` : ''}${others.length ? `; other layouts' markers: ${others.join('; ')}` : ''}`,
    });
  }
  return { reader: r, findings };
}
