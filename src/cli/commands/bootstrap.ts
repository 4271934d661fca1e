import type { CommandSpec } from '../command.js';
import { clusterOptions } from '../command.js';

export const bootstrapCommand: CommandSpec = {
  name: 'bootstrap',
  summary: 'install Argo CD (or Flux) on a cluster, hand it the root Application (Kustomization) and wait for every wave',
  usage: `Usage: fleetplan bootstrap (--cluster C | -l SELECTOR | --all) [--context CTX] [--kubeconfig F] [--dry-run]
                           [--timeout D] [--no-wait] [--force-conflicts] [-o text|json] [--repo DIR]

Runs the cluster's bootstrap stages (see \`fleetplan plan --cluster C\`): each stage is dry-run on
the server, then server-side applied as field manager "fleetplan", then awaited through watches.
Safe to interrupt and run again: a rerun picks up where the last one stopped.

  --context CTX, --kubeconfig F   the cluster (default: KUBECONFIG, else ~/.kube/config; its current context;
                                 else, in a pod, the service account's token and CA: see "in-cluster" in the README)
  --dry-run                      server-side dry-run only: print the change set, write nothing
  --timeout D                    for the whole run, e.g. 90s, 20m, 1h (default 30m); names what is not ready
  --no-wait                      stop after the root Application instead of waiting for the waves
  --force-conflicts              take fields another field manager owns (otherwise: fail, naming it)
  -o json                        one JSON event per line on stdout (the last one holds the result)
  --argocd-manifests PATH        upstream Argo CD manifests (file or directory), for non-OpenShift clusters
  --flux-manifests PATH          (gitops.engine: flux) Flux's install manifests, e.g. flux install --export;
                                 then the GitRepository and root Kustomization of render --out DIR/<cluster>/bootstrap,
                                 and every Flux Kustomization Ready in dependsOn order
  --secret-store FILE            a ClusterSecretStore to apply (it references its credentials)
  --secret-store-credentials secret/NS/NAME
                                 the Secret with the store's credentials, which you create; never in Git
Spokes: for a spoke, --context is its hub. fleetplan waits for the spoke's ClusterDeployment to be
installed and its ManagedCluster available, then bootstraps the spoke with the admin kubeconfig from
the Hive Secret (or --spoke-kubeconfig F). A GitOps operator an ACM policy installed is left as is.
  --all                          the hub, then its spokes in parallel; each cluster's outcome is reported
One cluster per run without --all: -l must select exactly one.
helmfile + Flux repositories: the CRD phase (helm template --include-crds, CRDs applied server-side),
then each release in needs order with the real Helm 3 (helm upgrade --install, its hooks), then every
Flux Kustomization Ready in dependsOn order.
  -e, --environment NAME         the helmfile environment ({{ .Environment.Name }}; default "default")
  --dry-run                      (helmfile) per phase: the helm commands, CRDs and hook objects as the server's
                                 dry-run sees them, the Kustomizations it would await; writes nothing
  --helm PATH                    the Helm 3 binary (default: FLEETPLAN_HELM, PATH, .tools/bin)
Phase 2 (a fleet with gitops.mirror): once a cluster's waves converge, runs \`fleetplan mirror\` on it
(push to the internal Git service, switch Argo CD to it), on each cluster of --all (a spoke through
the client that reached it); with --dry-run it says what phase 2 would push, switch and await; with
--no-wait it pushes and switches if the Git service is already ready, and does not wait.
  --force-push                   (phase 2) replace a mirror branch that has commits the cluster's commit does not`,
  examples: [
    { what: 'what bootstrapping the hub would change, without writing', run: 'fleetplan bootstrap --repo examples/lab --cluster hub --context hub-admin --dry-run', notRun: 'needs a cluster' },
    { what: 'bootstrap the hub and wait for every wave, for at most 45 minutes', run: 'fleetplan bootstrap --repo examples/lab --cluster hub --context hub-admin --timeout 45m', notRun: 'needs a cluster' },
    { what: 'the spoke etl4, through its hub\'s context, chosen by name label', run: 'fleetplan bootstrap --repo examples/lab -l fleetplan.io/name=etl4 --context hub-admin', notRun: 'needs a cluster' },
    { what: 'the hub, then its spokes in parallel, as JSON events', run: 'fleetplan bootstrap --repo examples/lab --all --context hub-admin -o json', notRun: 'needs a cluster' },
  ],
  complete: { flags: { output: ['text', 'json'], kubeconfig: 'file', helm: 'file', environment: 'none', 'spoke-kubeconfig': 'file', 'argocd-manifests': 'file', 'flux-manifests': 'file', 'secret-store': 'file', context: 'none', timeout: 'none' } },
  options: {
    ...clusterOptions,
    all: { type: 'boolean' },
    context: { type: 'string' },
    kubeconfig: { type: 'string' },
    'dry-run': { type: 'boolean' },
    timeout: { type: 'string' },
    'no-wait': { type: 'boolean' },
    'force-conflicts': { type: 'boolean' },
    output: { type: 'string', short: 'o' },
    'argocd-manifests': { type: 'string' },
    'flux-manifests': { type: 'string' },
    'secret-store': { type: 'string' },
    'secret-store-credentials': { type: 'string' },
    'spoke-kubeconfig': { type: 'string' },
    environment: { type: 'string', short: 'e' },
    helm: { type: 'string' },
    'force-push': { type: 'boolean' },
  },
};
