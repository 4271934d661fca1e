/**
 * The ApplicationSet benchmark's baseline: the script a user would write instead of running
 * `fleetplan appset`, for this one ApplicationSet (bench/appset.ts `benchAppSet(true)`): read the
 * cluster Secrets (js-yaml), list the git directories at the revision (one `git ls-tree`), fill
 * the template in plain JavaScript for every cluster × directory (no template engine, no
 * generality), sort by name and print the Applications as YAML (js-yaml, sorted keys, the same
 * options as fleetplan), so that both print the same bytes. Run as a process, like the CLI:
 *   node dist/bench/appset-script.js CLUSTERS_FILE REPO_DIR > apps.yaml
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import { dump, loadAll } from 'js-yaml';

interface Secret {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  stringData: Record<string, string>;
}

const [clustersFile, repo] = process.argv.slice(2) as [string, string];
const secrets: Secret[] = [];
loadAll(readFileSync(clustersFile, 'utf8'), (d) => secrets.push(d as Secret));
const dirs = execFileSync('git', ['-C', repo, 'ls-tree', '-d', '--name-only', 'main', 'argocd/config/'], { encoding: 'utf8' }).split('\n').filter(Boolean);

const apps: { name: string; app: unknown }[] = [];
for (const s of secrets) {
  const labels = s.metadata.labels ?? {};
  if (labels['argocd.argoproj.io/secret-type'] !== 'cluster') continue;
  const ann = s.metadata.annotations ?? {};
  const name = s.stringData['name']!;
  for (const path of dirs) {
    const basename = path.slice(path.lastIndexOf('/') + 1);
    const appName = `${name}-${basename}`;
    apps.push({
      name: appName,
      app: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: appName, namespace: 'argocd', labels: { cluster: name.toLowerCase() }, finalizers: ['resources-finalizer.argocd.argoproj.io'] },
        spec: {
          project: 'default',
          sources: [
            {
              path,
              repoURL: ann['git_repo'],
              targetRevision: ann['git_revision'],
              helm: { valueFiles: ['values.yaml', `$values/deploy/${labels['environment']}/${labels['region_alias']}/argocd/${labels['cluster_type']}-values.yaml`] },
            },
            { ref: 'values', repoURL: ann['git_repo'], targetRevision: ann['git_revision'] },
          ],
          destination: { server: s.stringData['server'], namespace: basename },
          syncPolicy: { automated: { prune: true, selfHeal: true } },
        },
      },
    });
  }
}
apps.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const options = { sortKeys: true, lineWidth: -1, noRefs: true } as const;
// Written in chunks: the whole stream as one string is ~100 MB.
for (let i = 0; i < apps.length; i += 1000) {
  writeSync(1, apps.slice(i, i + 1000).map((a) => `---\n${dump(a.app, options)}`).join(''));
}
