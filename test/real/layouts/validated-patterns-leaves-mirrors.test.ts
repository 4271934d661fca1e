/**
 * Validated Patterns this project's fixtures do not use (the mirrors of PATTERNS at HEAD, when
 * present): every local chart `render --leaves` builds equals `helm template` of the chart with
 * the value files and parameters of the Application fleetplan renders for it (value files from the
 * repository root, ignored when missing; `$ARGOCD_APP_NAMESPACE` as Argo CD sets it), object for
 * object, less the Helm hooks no Argo CD sync creates (test hooks of these charts: ADR 0419), which
 * the app's notes count. A chart that fails offline on a value only the operator knows must say so
 * (ADR 0386).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { cli } from '../../support/fleet-fixture.js';
import { removeDir, requireTools, tempDir, toolEnv } from '../../helpers/tools.js';

const MIRROR = '/work/.mirror';
const PATTERNS = ['validatedpatterns/retail', 'validatedpatterns/travelops', 'validatedpatterns/mlops-fraud-detection', 'validatedpatterns/rag-llm-gitops', 'validatedpatterns/emerging-disease-detection'];

type Source = { path?: string; helm?: { valueFiles?: string[]; ignoreMissingValueFiles?: boolean; parameters?: { name: string; value?: string; forceString?: boolean }[] } };
type App = { kind: string; metadata: { name: string }; spec: { source?: Source; destination: { namespace?: string } } };

/**
 * Objects of a YAML stream, each as canonical JSON, sorted; an object in the destination namespace
 * `ns` is the same as one without a namespace (Argo CD applies that one there, and the leaves
 * write it there).
 */
function objects(text: string, ns: string): string[] {
  return parsed(text).map((o) => JSON.stringify(canonical(inNamespace(o, ns)))).sort();
}

function parsed(text: string): unknown[] {
  return parseAllDocuments(text).map((d) => d.toJS({}) as unknown).filter((o) => o !== null && o !== undefined);
}

const canonical = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== null).map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;

function inNamespace(o: unknown, ns: string): unknown {
  const md = (o as { metadata?: Record<string, unknown> }).metadata;
  if (md?.namespace === ns) delete md.namespace;
  return o;
}

/**
 * Whether an Argo CD sync creates an object of `helm template` output, for these charts: not a Helm
 * hook, or a hook one of whose events is install or upgrade (gitops-engine's PreSync/PostSync), or
 * an `argocd.argoproj.io/hook` of PreSync, Sync or PostSync (which wins over Helm's); other Argo CD
 * hook types do not occur in these charts and are not judged here.
 */
function syncCreates(o: unknown): boolean {
  const a = (o as { metadata?: { annotations?: Record<string, unknown> } }).metadata?.annotations ?? {};
  const argo = typeof a['argocd.argoproj.io/hook'] === 'string' ? a['argocd.argoproj.io/hook'].split(',').map((t) => t.trim()) : [];
  if (argo.some((t) => ['PreSync', 'Sync', 'PostSync'].includes(t))) return true;
  assert.deepEqual(argo, [], `argocd.argoproj.io/hook: ${argo.join(',')} (not a hook of a sync): extend this reference`);
  const hook = a['helm.sh/hook'];
  if (typeof hook !== 'string' || hook === 'crd-install') return true;
  return hook.split(',').some((e) => ['pre-install', 'pre-upgrade', 'post-install', 'post-upgrade'].includes(e.trim()));
}

test('Validated Patterns mirrors: render --leaves of each local chart equals helm template with its Application\'s value files and parameters', async (t) => {
  const gits = PATTERNS.map((p) => ({ p, git: join(MIRROR, p.replace('/', '+'), 'repo') })).filter((x) => existsSync(x.git));
  if (gits.length === 0) {
    t.skip(`no mirror of ${PATTERNS.join(', ')} under ${MIRROR}`);
    return;
  }
  const { helm, kubectl } = requireTools();
  const dir = tempDir('vp-leaves-mirrors');
  const failures: string[] = [];
  try {
    for (const { p, git } of gits) {
      const repo = join(dir, p.split('/')[1]!);
      execFileSync('git', ['clone', '-q', git, repo]);
      execFileSync('git', ['-C', repo, 'remote', 'set-url', 'origin', `https://github.com/${p}.git`]);
      const out = join(dir, 'out', p.split('/')[1]!);
      const r = await cli(['render', '--repo', repo, '--out', out, '--leaves']);
      let compared = 0;
      for (const cluster of readdirSync(out).filter((c) => existsSync(join(out, c, 'manifests')))) {
        const rendered = JSON.parse((await cli(['render', '--repo', repo, '--cluster', cluster, '-o', 'json'])).stdout) as { items: App[] };
        for (const app of rendered.items.filter((o) => o.kind === 'Application')) {
          const src = app.spec.source;
          const name = app.metadata.name;
          if (!src?.path || src.path.startsWith('rendered/') || !existsSync(join(repo, src.path, 'Chart.yaml'))) continue;
          const leafDir = join(out, cluster, 'manifests', name);
          if (!existsSync(leafDir)) {
            // Not built: only a failure that says which operator value it lacks is acceptable.
            if (!new RegExp(`app ${name}: [^\\n]*failed[\\s\\S]*?is set per cluster by the Validated Patterns operator`).test(r.stderr)) failures.push(`${p} ${cluster}/${name}: not built, and no operator value named`);
            continue;
          }
          const ns = app.spec.destination.namespace ?? '';
          const args = ['template', name, join(repo, src.path), '--namespace', ns, '--include-crds'];
          for (const f of src.helm?.valueFiles ?? []) {
            const file = f.startsWith('/') ? join(repo, f) : join(repo, src.path, f);
            if (existsSync(file)) args.push('--values', file);
          }
          for (const x of src.helm?.parameters ?? []) {
            args.push(x.forceString ? '--set-string' : '--set', `${x.name}=${String(x.value ?? '').replaceAll('$ARGOCD_APP_NAMESPACE', ns).replaceAll('$ARGOCD_APP_NAME', name)}`);
          }
          const raw = execFileSync(helm, args, { encoding: 'utf8', env: toolEnv(join(dir, 'home')), maxBuffer: 1 << 26 });
          // Read as Go reads it (Argo CD, kustomize): some charts write YAML that a YAML 1.2 reader takes otherwise.
          const kz = join(dir, 'kz', p.split('/')[1]!, cluster, name);
          mkdirSync(kz, { recursive: true });
          writeFileSync(join(kz, 'all.yaml'), raw);
          writeFileSync(join(kz, 'kustomization.yaml'), 'resources:\n- all.yaml\n');
          const built = parsed(execFileSync(kubectl, ['kustomize', kz], { encoding: 'utf8', env: toolEnv(join(dir, 'home')), maxBuffer: 1 << 26 }));
          const expected = built.filter(syncCreates).map((o) => JSON.stringify(canonical(inNamespace(o, ns)))).sort();
          const leftOut = built.length - built.filter(syncCreates).length;
          const actual = readdirSync(leafDir).sort().map((f) => readFileSync(join(leafDir, f), 'utf8')).join('\n---\n');
          try {
            assert.deepEqual(objects(actual, ns), expected);
          } catch {
            failures.push(`${p} ${cluster}/${name}: leaves differ from helm template`);
          }
          if (leftOut > 0 && !(r.stdout + r.stderr).includes(`cluster ${cluster}, app ${name}: ${leftOut} Helm test hook${leftOut === 1 ? '' : 's'} left out`)) {
            failures.push(`${p} ${cluster}/${name}: no note of the ${leftOut} test hooks left out (these charts have no other hooks Argo CD leaves out)`);
          }
          compared++;
        }
      }
      if (compared === 0) failures.push(`${p}: no local chart compared`);
    }
    assert.deepEqual(failures, []);
  } finally {
    removeDir(dir);
  }
});
