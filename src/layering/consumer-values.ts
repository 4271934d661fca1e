/**
 * Findings about values that load fine but that their consumer reads differently or rejects
 * (ADR 0217): a sync wave gitops-engine cannot parse, an Application, project or Namespace name
 * the API server refuses, a name that makes a file name longer than file systems allow. They are
 * resolution findings, so `validate` reports them and `render` refuses to write anything while
 * they stand, at the same file and line.
 */
import type { Finding } from '../model/finding.js';
import type { Fleet, Origin } from '../model/fleet.js';
import { displayPath, locateOrigin } from '../model/fleet.js';
import { dns1123LabelProblem, dns1123SubdomainProblem, fileNameProblem, syncWaveProblem } from '../model/k8s-names.js';
import type { ResolvedApp, ResolvedCluster } from '../model/resolved.js';
import { SELF_APPLICATION, selfManaged } from '../model/constants.js';
import { formatPath } from '../model/source.js';

export const consumerValueCodes = {
  'invalid-sync-wave': {
    severity: 'error',
    summary: 'a sync wave Argo CD cannot read',
    help: "gitops-engine reads argocd.argoproj.io/sync-wave with Go's strconv.Atoi; a value that is not an integer in Go's int range fails and the app syncs in wave 0, first. Use an integer (waves are usually small).",
  },
  'invalid-name': {
    severity: 'error',
    summary: 'a name the Kubernetes API server rejects',
    help: 'Application and AppProject names must be RFC 1123 subdomains (at most 253 characters), Namespace names RFC 1123 labels (at most 63): lower case letters, digits and -, starting and ending with a letter or digit.',
  },
  'generated-app-name': {
    severity: 'error',
    summary: 'an app has the name of an Application fleetplan generates',
    help: "fleetplan generates gitops-self (Argo CD's own configuration, ADR 0240) on every native Argo CD app-of-apps cluster, written to <cluster>/apps/gitops-self.yaml: an app of the same name would be written to that file too, and one of the two silently lost. Rename the app, or set gitops.selfManaged: false to manage Argo CD with your own app.",
  },
  'file-name-too-long': {
    severity: 'error',
    summary: 'a name makes a file name longer than 255 bytes',
    help: 'render writes one file per cluster and app; file systems refuse names above 255 bytes. Shorten the name.',
  },
} as const;

/** The layer that set `field` of the app last (else the app itself). */
function fieldOrigin(fleet: Fleet, app: ResolvedApp, field: string): Origin {
  for (let i = app.layers.length - 1; i >= 0; i--) {
    const o = app.layers[i]!;
    let v: unknown = fleet.sources.get(o.file)?.value;
    for (const seg of [...o.path, field]) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[seg] : undefined;
    if (v !== undefined) return { file: o.file, path: [...o.path, field] };
  }
  return app.origin;
}

export function consumerValueFindings(fleet: Fleet, cluster: ResolvedCluster): Finding[] {
  const findings: Finding[] = [];
  const place = (origin: Origin, code: keyof typeof consumerValueCodes, message: string, hint: string, app?: string, severity: 'error' | 'warning' = 'error'): void => {
    const p = formatPath(displayPath(fleet, origin));
    findings.push({
      severity,
      code,
      message,
      hint,
      ...locateOrigin(fleet, origin),
      ...(p ? { path: p } : {}),
      cluster: cluster.name,
      ...(app !== undefined ? { app } : {}),
    });
  };
  const clusterProblem = fileNameProblem(cluster.name) ?? dns1123SubdomainProblem(cluster.name);
  if (clusterProblem) {
    place({ file: cluster.file, path: ['metadata', 'name'] }, 'invalid-name', `cluster name "${short(cluster.name)}" ${clusterProblem}`, 'rename the cluster');
  }
  const self = selfManaged(fleet);
  for (const app of cluster.apps) {
    if (self && app.name === SELF_APPLICATION) {
      place(app.origin, 'generated-app-name',
        `app "${SELF_APPLICATION}" of cluster ${cluster.name} has the name of the Application fleetplan generates for Argo CD's own configuration: both would be written to ${cluster.name}/apps/${SELF_APPLICATION}.yaml and one of them lost`,
        `rename the app (e.g. argocd-config); or, to manage Argo CD with it instead, set gitops.selfManaged: false in ${fleet.file}`, app.name);
    }
    const wave = syncWaveProblem(app.wave);
    if (wave) {
      place(app.explicitWave !== undefined ? fieldOrigin(fleet, app, 'wave') : app.origin, 'invalid-sync-wave', `app "${short(app.name)}": sync wave ${wave}`, 'give an integer wave between -2147483648 and 2147483647 (waves are usually small)', app.name);
    }
    // Under Flux an app's name is fleetplan's id (`flux:namespace/name`): its objects carry their own names.
    const argo = fleet.engine !== 'flux';
    const fileName = argo ? fileNameProblem(`${app.name}.yaml`) : undefined;
    const name = argo ? dns1123SubdomainProblem(app.name) : undefined;
    if (name) {
      place(app.origin, 'invalid-name', `app name "${short(app.name)}" is not a valid Application name: it ${name}`, 'rename the app', app.name);
    } else if (fileName) {
      place(app.origin, 'file-name-too-long', `app name "${short(app.name)}" makes the file ${cluster.name}/apps/${short(app.name)}.yaml: ${fileName}`, 'shorten the app name', app.name);
    }
    const ns = app.destination.namespace;
    if (ns !== undefined && ns !== '' && !ns.includes('${')) {
      const problem = dns1123LabelProblem(ns);
      // The repository's own Applications (ADR 0338): Argo CD accepts any destination namespace and
      // uses it only for namespaced objects without one (and CreateNamespace), so it is a warning.
      if (problem && fleet.capabilities.repositoryArgoConfig) {
        place(fieldOrigin(fleet, app, 'namespace'), 'invalid-name', `app "${short(app.name)}" has destination namespace "${short(ns)}", which is not a valid Namespace name: it ${problem}; Argo CD accepts the Application, but a namespaced object without its own namespace, or CreateNamespace=true, fails to sync`, 'give every namespaced object of the app its own namespace, or set a valid destination namespace', app.name, 'warning');
      } else if (problem) place(fieldOrigin(fleet, app, 'namespace'), 'invalid-name', `app "${short(app.name)}" targets namespace "${short(ns)}", which is not a valid Namespace name: it ${problem}`, 'fix the namespace', app.name);
    }
    const project = app.project;
    const projectProblem = argo && project ? dns1123SubdomainProblem(project) : undefined;
    if (projectProblem) place(fieldOrigin(fleet, app, 'project'), 'invalid-name', `app "${short(app.name)}" uses project "${short(project)}", which is not a valid AppProject name: it ${projectProblem}`, 'fix the project name', app.name);
  }
  return findings;
}

/** A name shortened for a message (a 300-character name makes an unreadable line). */
function short(s: string): string {
  return s.length > 80 ? `${s.slice(0, 40)}…${s.slice(-20)} (${s.length} characters)` : s;
}
