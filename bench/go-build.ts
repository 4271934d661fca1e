/**
 * Builds a small Go program of bench/ in GOPATH mode from Debian's packages
 * (golang-1.19-go, golang-github-masterminds-sprig-dev). Returns the binary's path and a cleanup,
 * or the reason it cannot: benchmarks and differential tests skip Go when it is absent.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const GOCODE = '/usr/share/gocode/src';

function findGo(): string | undefined {
  for (const candidate of ['/usr/lib/go-1.19/bin/go', '/usr/lib/go/bin/go']) if (existsSync(candidate)) return candidate;
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  return r.status === 0 ? 'go' : undefined;
}

export function buildGoProgram(dir: string): { bin: string; cleanup: () => void } | string {
  const go = findGo();
  if (!go) return 'Go is not installed (apt-get install golang-1.19-go golang-github-masterminds-sprig-dev)';
  if (!existsSync(join(GOCODE, 'github.com/Masterminds/sprig'))) return 'sprig is not installed (golang-github-masterminds-sprig-dev)';
  const gopath = mkdtempSync(join(tmpdir(), 'fleetplan-go-'));
  const cleanup = (): void => rmSync(gopath, { recursive: true, force: true });
  try {
    const src = join(gopath, 'src');
    mkdirSync(src);
    for (const entry of ['github.com', 'golang.org', 'gopkg.in', 'code.google.com']) {
      if (existsSync(join(GOCODE, entry))) symlinkSync(join(GOCODE, entry), join(src, entry));
    }
    const name = basename(dir);
    cpSync(dir, join(src, name), { recursive: true });
    const bin = join(gopath, name);
    execFileSync(go, ['build', '-o', bin, '.'], {
      cwd: join(src, name),
      env: { ...process.env, GO111MODULE: 'off', GOPATH: gopath, GOCACHE: join(gopath, 'cache'), GOFLAGS: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return { bin, cleanup };
  } catch (e) {
    cleanup();
    return `cannot build ${dir}: ${(e as Error).message}`;
  }
}
