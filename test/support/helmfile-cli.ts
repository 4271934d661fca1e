/** A helmfile repository committed to git, as a user's clone is, and what the CLI writes for it. */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, writeTree } from './fleet-fixture.js';

/** A local chart `charts/web` whose ConfigMap carries `.Values.host`. */
export const WEB_CHART: Record<string, string> = {
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  host: {{ .Values.host | quote }}\n',
};

/** `files` written and committed on branch main. */
export function committedRepo(files: Record<string, string>): string {
  const dir = writeTree(files);
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'add', '-A']);
  execFileSync('git', ['-C', dir, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'fixture']);
  return dir;
}

/** The app names of `plan -o json`. */
export const appNames = (stdout: string): string[] => (JSON.parse(stdout) as { clusters: { apps: { name: string }[] }[] }).clusters.flatMap((c) => c.apps.map((a) => a.name));

/** `render --leaves --out DIR/out` with `flags`: the YAML files written and their text, joined. */
export async function renderLeaves(dir: string, flags: string[]): Promise<{ files: string[]; text: string; code: number; stderr: string }> {
  const out = join(dir, 'out');
  const r = await cli(['render', '--repo', dir, '--leaves', '--out', out, ...flags]);
  const files = r.code === 0 ? readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith('.yaml')) : [];
  return { files, text: files.map((f) => readFileSync(join(out, f), 'utf8')).join('\n'), code: r.code, stderr: r.stderr };
}

/**
 * A `.gotmpl` state: environments default (`ns: dev`) and prod (`ns: prod`, plus `prodExtra`
 * lines), then release `web` of WEB_CHART in namespace `.Values.ns` with `host: <host>`.
 */
export function webHelmfile(host: string, prodExtra = ''): string {
  return `environments:
  default:
    values:
      - ns: dev
  prod:
    values:
      - ns: prod
${prodExtra}---
releases:
  - name: web
    namespace: {{ .Values.ns }}
    chart: ./charts/web
    values:
      - host: ${host}
`;
}
