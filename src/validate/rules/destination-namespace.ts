/**
 * Rule: an app's destination namespace must be its own. The destination namespace is the default
 * namespace of the app's objects that have none; CreateNamespace and managedNamespaceMetadata act
 * on it; Argo CD fails the sync of cluster-scoped objects when it does not exist (argo-cd #14487)
 * and, on a cluster with a namespace list, rejects the sync with a message about another namespace
 * (#11588). Copying an app entry and keeping the namespace of the app it was copied from leaves all
 * of that unnoticed until a sync fails.
 *
 * Reported only when the mistake is certain: app A on a cluster has destination namespace N, no
 * object of A lives in N or creates it (every namespaced object of A names its namespace), and N
 * belongs to another app B on the same cluster (B creates Namespace N, or B's objects name N)
 * that A has nothing to do with: A does not need B (nor B A), and neither uses an API the other
 * provides — an operator's configuration app deploying to the operator's namespace is a choice,
 * not a mistake.
 * Apps whose objects cannot be known offline are skipped, and so are apps without namespaced
 * objects. A kustomization reference that names nothing is read the way it most likely means
 * (likelyTarget: wrong depth, one-letter typo) when exactly one reading exists — the
 * kustomize-missing-path finding says the same — and the message says so; otherwise the app is
 * skipped.
 *
 * One finding per place (the layer that set the namespace), naming every cluster it holds on.
 */
import type { Finding } from '../../model/finding.js';
import type { ResolvedApp, ResolvedCluster } from '../../model/resolved.js';
import { substitute } from '../../model/substitute.js';
import type { RuleDefinition } from '../engine.js';
import type { RuleContext } from '../context.js';
import { fieldOrigin, place } from '../context.js';
import type { ManifestObject } from '../../load/manifests.js';
import { CLUSTER_SCOPED, inKustomizeNamespace } from '../../load/manifests.js';
import { likelyTarget } from '../kustomize-refs.js';
import { needsClosure, summarize } from './crd-order.js';

const CODE = 'foreign-destination-namespace';

interface Reading {
  /** The kustomization directory, its entry, and what the entry is read as. */
  dir: string;
  entry: string;
  target: string;
}

interface Known {
  objects: readonly ManifestObject[];
  readings: Reading[];
}

interface Usage {
  /** Explicit namespaces of namespaced objects, with how many objects name each. */
  explicit: Map<string, number>;
  /** Namespace objects the app creates. */
  creates: Set<string>;
  /** Objects of namespaced (or unknown-scope) kinds without a namespace: they land in the destination namespace. */
  defaulted: number;
}

interface Place {
  finding: Finding;
  app: string;
  namespace: string;
  clusters: string[];
  owners: Map<string, 'creates' | 'uses'>;
  used: Map<string, number>;
  creates: Set<string>;
  readings: Reading[];
}

/**
 * The objects of an app with the readings used for references that name nothing; undefined when
 * they cannot be known (remote sources or references, charts, references with no single reading).
 */
function knownObjects(ctx: RuleContext, cache: Map<string, Known | undefined>, cluster: ResolvedCluster, app: ResolvedApp): Known | undefined {
  const objects = ctx.objectsOf(cluster, app);
  if (!objects) return undefined;
  const path = ctx.localPath(app);
  if (path === undefined) return { objects, readings: [] };
  const dir = ctx.manifests.directory(path);
  // Leaf objects (a rendering) are what the app applies, whatever its directory says.
  if (objects !== dir.objects || !dir.unresolved) return { objects, readings: [] };
  if (cache.has(path)) return cache.get(path);
  let known: Known | undefined = { objects: [...objects], readings: [] };
  for (const u of dir.unresolved) {
    const target = u.remote ? undefined : likelyTarget(ctx.fs, u.dir, u.entry);
    if (target === undefined) {
      known = undefined;
      break;
    }
    let more: readonly ManifestObject[];
    if (ctx.fs.isDirectory(target)) {
      const sub = ctx.manifests.directory(target);
      if (sub.unresolved || sub.kind === 'chart' || sub.kind === 'missing') {
        known = undefined;
        break;
      }
      more = sub.objects;
    } else {
      more = ctx.manifests.file(target);
    }
    const ns = u.namespace;
    known.objects = [...known.objects, ...(ns ? more.map((o) => inKustomizeNamespace(o, ns)) : more)];
    known.readings.push({ dir: u.dir, entry: u.entry, target });
  }
  cache.set(path, known);
  return known;
}

function usageOf(objects: readonly ManifestObject[], lookup: (n: string) => string | undefined): Usage {
  const u: Usage = { explicit: new Map(), creates: new Set(), defaulted: 0 };
  const text = (s: string) => (s.includes('$') ? substitute(s, lookup).text : s);
  for (const o of objects) {
    if (o.kind === 'Namespace') {
      if (o.name) u.creates.add(text(o.name));
    } else if (CLUSTER_SCOPED.has(o.kind)) {
      continue;
    } else if (o.namespace) {
      const ns = text(o.namespace);
      u.explicit.set(ns, (u.explicit.get(ns) ?? 0) + 1);
    } else {
      u.defaulted++;
    }
  }
  return u;
}

/** The namespace an app evidently means: the one it creates, else the one most of its objects name. */
function ownNamespace(creates: readonly string[], used: Map<string, number>): string | undefined {
  if (creates.length) return creates[0];
  return [...used.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]?.[0];
}

function names(list: readonly string[]): string {
  return list.length > 5 ? `${list.slice(0, 5).join(', ')} and ${list.length - 5} more` : list.join(', ');
}

export const destinationNamespaceRule: RuleDefinition = {
  name: 'destination-namespace',
  codes: {
    [CODE]: {
      severity: 'warning',
      summary: "an app's destination namespace belongs to another app",
      help: 'The destination namespace is the default namespace of objects without one, the namespace CreateNamespace and managedNamespaceMetadata act on, and it must exist for the sync of cluster-scoped objects (argo-cd #14487) and be managed on namespaced clusters (#11588). An app whose objects all live elsewhere while its destination is another app\'s namespace is a copy/paste mistake: set destination.namespace to the app\'s own namespace.',
    },
  },
  run(ctx) {
    const { fleet } = ctx;
    // A Flux Kustomization has no destination namespace (the flux layout's apps are the repository's own Kustomizations, ADR 0279).
    if (fleet.capabilities.appDestinations === false) return [];
    const cache = new Map<string, Known | undefined>();
    const places = new Map<string, Place>();
    for (const c of ctx.clusters) {
      const lookup = (n: string) => c.vars[n];
      const apps: { app: ResolvedApp; known: Known; usage: Usage }[] = [];
      const owners = new Map<string, Map<string, 'creates' | 'uses'>>();
      const own = (ns: string, app: string, how: 'creates' | 'uses') => {
        let m = owners.get(ns);
        if (!m) owners.set(ns, (m = new Map()));
        if (m.get(app) !== 'creates') m.set(app, how);
      };
      for (const app of c.apps) {
        const known = knownObjects(ctx, cache, c, app);
        if (!known) continue;
        const usage = usageOf(known.objects, lookup);
        apps.push({ app, known, usage });
        for (const ns of usage.explicit.keys()) own(ns, app.name, 'uses');
        for (const ns of usage.creates) own(ns, app.name, 'creates');
      }
      const closure = needsClosure(c);
      const summaryOf = new Map(apps.map((a) => [a.app.name, summarize(a.known.objects)]));
      const configures = (a: string, b: string): boolean => {
        const sa = summaryOf.get(a);
        const sb = summaryOf.get(b);
        if (!sa || !sb) return false;
        for (const key of sa.uses.keys()) if (sb.provides.has(key) || sb.provides.has(key.split('/')[0]!)) return true;
        return false;
      };
      const byName = new Map(c.apps.map((a) => [a.name, a]));
      const related = (a: ResolvedApp, b: string): boolean => {
        const bApp = byName.get(b);
        return closure(a).has(b) || (bApp !== undefined && closure(bApp).has(a.name)) || configures(a.name, b) || configures(b, a.name);
      };
      for (const { app, known, usage } of apps) {
        const n = app.destination.namespace;
        if (!n || n.includes('$')) continue;
        if (usage.explicit.size === 0 || usage.defaulted > 0) continue;
        if (usage.explicit.has(n) || usage.creates.has(n)) continue;
        const others = [...(owners.get(n) ?? new Map<string, 'creates' | 'uses'>()).entries()].filter(([b]) => b !== app.name && !related(app, b));
        if (others.length === 0) continue;
        const draft = place(fleet, fieldOrigin(fleet, app, ['namespace']), { severity: 'warning', code: CODE, message: '', app: app.name });
        const key = [draft.file, draft.line, draft.column, app.name, n].join('\0');
        let p = places.get(key);
        if (!p) places.set(key, (p = { finding: draft, app: app.name, namespace: n, clusters: [], owners: new Map(), used: new Map(), creates: new Set(), readings: [] }));
        p.clusters.push(c.name);
        for (const [b, how] of others) if (p.owners.get(b) !== 'creates') p.owners.set(b, how);
        for (const [ns, k] of usage.explicit) p.used.set(ns, Math.max(p.used.get(ns) ?? 0, k));
        for (const r of known.readings) if (!p.readings.some((x) => x.dir === r.dir && x.entry === r.entry)) p.readings.push(r);
        for (const ns of usage.creates) p.creates.add(ns);
      }
    }
    const out: Finding[] = [];
    for (const p of places.values()) {
      const creates = [...p.creates].sort();
      const used = [...new Set([...p.used.keys(), ...creates])].sort();
      const owners = [...p.owners.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
      const ownerText = owners
        .map(([b, how]) => `"${b}" (${how === 'creates' ? 'it creates that Namespace' : 'its objects live there'})`)
        .join(' and ');
      const readings = p.readings.length
        ? ` (reading ${p.readings.map((r) => `"${r.entry}" of ${r.dir} as ${r.target}`).join(', ')}, see kustomize-missing-path)`
        : '';
      const where = p.clusters.length === 1 ? `on cluster ${p.clusters[0]!}` : `on clusters ${names(p.clusters)}`;
      const target = ownNamespace(creates, p.used);
      out.push({
        ...p.finding,
        message: `app "${p.app}" has destination namespace "${p.namespace}", which belongs to app ${ownerText}, while the objects of "${p.app}"${readings} live in ${used.join(', ')} ${where}`,
        hint: `set destination.namespace to "${target ?? used[0]!}", the namespace of "${p.app}": the destination namespace is where objects without a namespace go and what CreateNamespace and managedNamespaceMetadata act on; Argo CD fails the sync of cluster-scoped objects when it does not exist (argo-cd #14487) and names the wrong namespace when it is not managed (#11588)`,
        ...(p.clusters.length === 1 ? { cluster: p.clusters[0]! } : {}),
      });
    }
    return out;
  },
};
