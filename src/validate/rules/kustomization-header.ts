/**
 * Rule: a kustomization says what it is. kustomize fills in a missing `apiVersion`/`kind` in
 * memory (Kustomization, kustomize.config.k8s.io/v1beta1), but editors' schema validation,
 * `kustomize edit fix` and other tools read the file as written — a warning. What kustomize
 * itself refuses is an error: an unknown kind, an apiVersion that does not go with the kind
 * (a Component is kustomize.config.k8s.io/v1alpha1, a Kustomization v1beta1), and a directory
 * listed under `components:` whose kustomization is not a Component (or a Component listed
 * under `resources:`).
 *
 * Kustomizations checked: those the kustomize-references rule walks (app paths, kustomizations
 * under cluster folders, and what they reference) plus the layout's own: kustomization files the
 * layout reader read (Fleet.sources, cluster files) and the folders of Fleet.manifestFiles.
 */
import type { Finding } from '../../model/finding.js';
import { at } from '../../load/native.js';
import type { RuleDefinition } from '../engine.js';
import type { KustomizationReference, KustomizationVisit } from '../kustomize-refs.js';
import { appKustomizations, kustomizationIn, walkKustomizations } from '../kustomize-refs.js';
import { KUSTOMIZATION_FILES } from '../../load/manifests.js';

export const KUSTOMIZATION_API_VERSION = 'kustomize.config.k8s.io/v1beta1';
export const COMPONENT_API_VERSION = 'kustomize.config.k8s.io/v1alpha1';
const API_VERSIONS: Record<string, string> = { Kustomization: KUSTOMIZATION_API_VERSION, Component: COMPONENT_API_VERSION };

function dirOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
}

function isKustomizationFile(file: string): boolean {
  return KUSTOMIZATION_FILES.includes(file.slice(file.lastIndexOf('/') + 1));
}

export const kustomizationHeaderRule: RuleDefinition = {
  name: 'kustomization-header',
  codes: {
    'kustomization-missing-header': {
      severity: 'warning',
      summary: 'kustomization without apiVersion or kind',
      help: 'kustomize assumes kind: Kustomization and apiVersion: kustomize.config.k8s.io/v1beta1 in memory, but editors\' schema validation, `kustomize edit fix` and other tools read the file as written. Write both (a Component: kind: Component, apiVersion: kustomize.config.k8s.io/v1alpha1).',
    },
    'kustomization-header-mismatch': {
      severity: 'error',
      summary: 'kustomization with an unknown kind or an apiVersion that does not go with its kind',
      help: 'kustomize build refuses it ("apiVersion for Component should be kustomize.config.k8s.io/v1alpha1"): a Kustomization is kustomize.config.k8s.io/v1beta1, a Component kustomize.config.k8s.io/v1alpha1; no other kind exists.',
    },
    'kustomization-component-kind': {
      severity: 'error',
      summary: 'components entry that is not a Component, or a Component under resources',
      help: 'kustomize build fails with "expected kind \'Component\'": a folder listed under components: must hold kind: Component (apiVersion kustomize.config.k8s.io/v1alpha1), and a Component cannot be listed under resources:.',
    },
  },
  run(ctx) {
    const { fleet, clusters, fs } = ctx;
    const own = new Set<string>();
    for (const file of fleet.sources.keys()) if (isKustomizationFile(file)) own.add(dirOf(file));
    for (const c of clusters) if (isKustomizationFile(c.file)) own.add(dirOf(c.file));
    for (const file of fleet.manifestFiles ?? []) own.add(dirOf(file));
    const apps = appKustomizations(ctx);
    const references: KustomizationReference[] = [...apps.references];
    const visits = [
      ...apps.visits,
      ...walkKustomizations(fs, [...own].sort().filter((d) => !apps.dirs.has(d) && kustomizationIn(fs, d)), (ref) => references.push(ref), apps.dirs),
    ];
    const byDir = new Map<string, KustomizationVisit>(visits.map((v) => [v.dir, v]));
    const out: Finding[] = [];
    const kindOf = (v: KustomizationVisit) => (typeof v.doc.kind === 'string' ? v.doc.kind : undefined);

    // References first: a components entry without kind: Component is the build error, not a missing header.
    const reported = new Set<string>();
    for (const ref of references) {
      if (ref.field === 'bases' || ref.target === undefined) continue;
      const target = byDir.get(ref.target);
      if (!target) continue;
      const kind = kindOf(target) ?? 'Kustomization';
      if (ref.field === 'components' && kind !== 'Component') {
        reported.add(target.dir);
        out.push(at(ref.from.source, [ref.field, ref.index], {
          severity: 'error',
          code: 'kustomization-component-kind',
          message: `components entry "${ref.entry}" of ${ref.from.dir} names ${target.file}, which is ${kindOf(target) ? `kind ${kind}` : 'a Kustomization (no kind)'}, not a Component`,
          hint: `give ${target.file} kind: Component and apiVersion: ${COMPONENT_API_VERSION}, or list it under resources:`,
        }));
      } else if (ref.field === 'resources' && kind === 'Component') {
        out.push(at(ref.from.source, [ref.field, ref.index], {
          severity: 'error',
          code: 'kustomization-component-kind',
          message: `resources entry "${ref.entry}" of ${ref.from.dir} names ${target.file}, a Component`,
          hint: 'list it under components:',
        }));
      }
    }

    for (const v of visits) {
      const { apiVersion, kind } = v.doc;
      if (kind !== undefined && (typeof kind !== 'string' || !API_VERSIONS[kind])) {
        out.push(at(v.source, ['kind'], {
          severity: 'error',
          code: 'kustomization-header-mismatch',
          message: `${v.file} has kind ${JSON.stringify(kind)}; kustomize knows Kustomization and Component`,
          hint: 'kind: Kustomization (or Component for a folder listed under components:)',
        }));
        continue;
      }
      const expected = API_VERSIONS[kind ?? 'Kustomization']!;
      if (apiVersion !== undefined && apiVersion !== expected) {
        out.push(at(v.source, ['apiVersion'], {
          severity: 'error',
          code: 'kustomization-header-mismatch',
          message: `${v.file}: apiVersion ${JSON.stringify(apiVersion)} does not go with kind ${kind ?? 'Kustomization (the default)'}; kustomize build fails`,
          hint: `apiVersion: ${expected}`,
        }));
        continue;
      }
      if ((apiVersion === undefined || kind === undefined) && !reported.has(v.dir)) {
        const missing = [apiVersion === undefined ? 'apiVersion' : '', kind === undefined ? 'kind' : ''].filter(Boolean);
        const k = kind ?? 'Kustomization';
        out.push(at(v.source, [], {
          severity: 'warning',
          code: 'kustomization-missing-header',
          message: `${v.file} has no ${missing.join(' and no ')}`,
          hint: `start it with apiVersion: ${API_VERSIONS[k]} and kind: ${k}`,
        }));
      }
    }
    return out;
  },
};
