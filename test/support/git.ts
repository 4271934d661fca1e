import { execFileSync } from 'node:child_process';

/**
 * Real git with a fixed identity and fixed dates, and no system or user configuration, so that
 * commits made by tests have the same hashes on every machine (golden files name them).
 */
const FIXED_GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** `git -C dir ARGS`, its output trimmed. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { env: FIXED_GIT_ENV, encoding: 'utf8' }).trim();
}
