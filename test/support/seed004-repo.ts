/**
 * Builds the seed 004 test fleet (test/fixtures/seed-004) into a throwaway git repository with
 * fixed authors and dates, so the commit hashes are the same on every machine:
 *
 *   commit 1 (2026-01-01): the charts, without shared/logging and management-cluster/capi-provider
 *                          — production's pin
 *   commit 2 (2026-01-02): + argocd/config/shared/logging — staging's pin
 *   commit 3 (2026-01-03): + argocd/config/management-cluster/capi-provider and the fleet
 *                          (fleet.yaml, clusters/) — the head of main, which integration follows
 *
 * The fleet files come last because fleet.yaml names the hashes of commits 1 and 2.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export const SEED004_FIXTURE = 'test/fixtures/seed-004';

const gitEnv = (date: string): NodeJS.ProcessEnv => ({
  ...process.env,
  GIT_AUTHOR_NAME: 'fleetplan test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'fleetplan test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_AUTHOR_DATE: date,
  GIT_COMMITTER_DATE: date,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
});

function git(dir: string, date: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'commit.gpgsign=false', ...args], { env: gitEnv(date), encoding: 'utf8' }).trim();
}

/** The commit (1, 2 or 3) that adds a fixture file. */
export function seed004Stage(path: string): 1 | 2 | 3 {
  if (path.startsWith('argocd/config/shared/logging/')) return 2;
  if (path.startsWith('argocd/config/management-cluster/capi-provider/')) return 3;
  return path.startsWith('argocd/') ? 1 : 3;
}

function files(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as { isFile(): boolean; name: string; parentPath: string }[])
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** Builds the repository in `dir` (created); returns the three commit hashes, oldest first. */
export function buildSeed004Repo(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const dates = ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'];
  git(dir, dates[0]!, 'init', '-q', '-b', 'main');
  const all = files(SEED004_FIXTURE);
  const commits: string[] = [];
  for (const stage of [1, 2, 3] as const) {
    for (const f of all.filter((p) => seed004Stage(p) === stage)) cpSync(join(SEED004_FIXTURE, f), join(dir, f));
    git(dir, dates[stage - 1]!, 'add', '-A');
    git(dir, dates[stage - 1]!, 'commit', '-q', '-m', `stage ${stage}`);
    commits.push(git(dir, dates[stage - 1]!, 'rev-parse', 'HEAD'));
  }
  return commits;
}
