import type { CommandSpec } from '../command.js';
import { clusterOptions } from '../command.js';

export const mirrorCommand: CommandSpec = {
  name: 'mirror',
  summary: 'phase 2 of a two-phase bootstrap: push to the internal Git service, switch Argo CD to it',
  usage: `Usage: fleetplan mirror (--cluster C | -l SELECTOR) [--context CTX] [--kubeconfig F] [--timeout D]
                        [--dry-run] [--no-wait] [--force-push] [-o text|json] [--repo DIR]

For a fleet with gitops.mirror (see \`fleetplan plan --cluster C\`, "phase 2"), on a cluster already
bootstrapped from the external repository: waits until the app that deploys the internal Git service
is Synced and Healthy and the push credentials exist on the cluster; pushes the commit the cluster
runs to the mirror with git (credentials from the referenced Secret, given to git through a private
GIT_ASKPASS helper, never on a command line or in an environment); then server-side applies the
root Application (reading <renderedPath>/<cluster>/phase-2 from the mirror) and every Application
whose source is the fleet repository, switched to the mirror's URL; and waits until Argo CD reports
each Synced from it (every wait goes through watches). The pushed commit must hold the tree of
\`fleetplan render --phase 2\`. \`fleetplan bootstrap\` runs this by itself once the waves converge, on
each cluster it bootstraps. Safe to interrupt and rerun.

  --context CTX, --kubeconfig F   the cluster (default: KUBECONFIG, else ~/.kube/config; its current context)
  --timeout D                    for the whole run, e.g. 90s, 20m (default 30m); names what is not ready
  --dry-run                      push nothing, write nothing: print the commit that would be pushed (remote,
                                 branch, what it holds now), each object the switch would change (server-side
                                 dry run, with its repoURL change) and what would be awaited
  --no-wait                      push and switch without waiting for Argo CD to sync from the mirror (the Git
                                 service and credentials must be ready: they are checked, not awaited)
  --force-push                   replace a mirror branch that has commits the cluster's commit does not
  -o json                        one JSON event per line on stdout (the last one holds the result)`,
  examples: [
    { what: 'move the hub onto its internal Git service', run: 'fleetplan mirror --repo . --cluster hub --context hub-admin', notRun: 'needs a cluster' },
    { what: 'what moving the hub would push and switch, without doing it', run: 'fleetplan mirror --repo . --cluster hub --context hub-admin --dry-run', notRun: 'needs a cluster' },
  ],
  complete: { flags: { output: ['text', 'json'], kubeconfig: 'file', context: 'none', timeout: 'none' } },
  options: {
    ...clusterOptions,
    context: { type: 'string' },
    kubeconfig: { type: 'string' },
    timeout: { type: 'string' },
    'force-push': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    'no-wait': { type: 'boolean' },
    output: { type: 'string', short: 'o' },
  },
};
