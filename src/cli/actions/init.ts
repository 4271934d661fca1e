/**
 * `fleetplan init`: scaffolds a fleet repository, empty or from an example. Its name, help and
 * flags are in ../commands/init.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError, UsageError } from '../../entry/core.js';
import { copyExample, listExamples } from '../../adapters/examples.js';
import { writeNewFile } from '../../adapters/repo-edit.js';

const STARTER: Record<string, string> = {
  'fleet.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Fleet
metadata:
  name: my-fleet
spec:
  repoURL: https://git.example.com/platform/fleet.git
  revision: main
  sectors:
    # A production sector is protected: it must pin a commit (revision: <40-hex sha>),
    # which \`fleetplan promote --to production\` sets.
    - name: staging
  defaults:
    project: cluster-config
    syncPolicy:
      automated:
        prune: false
        selfHeal: true
    syncOptions:
      - ServerSideApply=true
`,
  'clusters/hub/cluster.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: hub
spec:
  role: hub
  sector: staging
  groups:
    - all
  vars:
    CLUSTER_BASE_DOMAIN: hub.example.com
  apps: {}
`,
  'groups/all/group.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Group
metadata:
  name: all
spec:
  description: apps every cluster gets
  apps:
    cluster-info:
      path: components/cluster-info
      namespace: cluster-info
      wave: 5
`,
  'components/cluster-info/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - configmap.yaml
`,
  'components/cluster-info/configmap.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: cluster-info
  namespace: cluster-info
data:
  name: \${CLUSTER_NAME}
  domain: \${CLUSTER_BASE_DOMAIN}
`,
};

export async function run(ctx: CommandContext): Promise<number> {
  if (ctx.positionals.length > 1) throw new UsageError('one DIR at most');
  const target = resolve(ctx.io.cwd, ctx.positionals[0] ?? '.');
  if (existsSync(join(target, 'fleet.yaml'))) {
    throw new InputError(`${join(target, 'fleet.yaml')} already exists`, { code: 'exists', hint: 'choose an empty directory' });
  }
  const example = ctx.values.example as string | undefined;
  if (example !== undefined) {
    const known = listExamples();
    if (!known.includes(example)) throw new UsageError(`unknown example "${example}"`, { hint: `examples: ${known.join(', ')}` });
    try {
      copyExample(example, target);
    } catch (e) {
      throw new InputError(`cannot write the example into ${target}: ${(e as Error).message}`, { code: 'exists', hint: 'choose an empty directory', cause: e });
    }
    ctx.io.stderr.write(`wrote the ${example} example fleet into ${target}\nnext: fleetplan plan --repo ${ctx.positionals[0] ?? '.'}\n`);
    return 0;
  }
  for (const path of Object.keys(STARTER)) {
    if (existsSync(join(target, path))) throw new InputError(`${join(target, path)} already exists`, { code: 'exists', hint: 'choose an empty directory' });
  }
  // Created where none exists: a concurrent init (or a file made meanwhile) is not overwritten.
  for (const [path, content] of Object.entries(STARTER)) writeNewFile(join(target, path), join(target, path), content);
  ctx.io.stderr.write(`wrote a new fleet into ${target}\nnext: edit fleet.yaml (repoURL), then fleetplan validate --repo ${ctx.positionals[0] ?? '.'}\n`);
  return 0;
}
