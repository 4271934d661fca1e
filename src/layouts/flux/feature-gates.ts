/**
 * kustomize-controller's `StrictPostBuildSubstitutions` feature gate on one cluster, as the
 * repository installs Flux (ADR 0411). With the gate, a variable that no source defines and that
 * has no default fails the Kustomization; without it, the variable becomes the empty string
 * (fluxcd/pkg kustomize `varSubstitution`). The gate is opt-out from kustomize-controller v1.9
 * (Flux v2.9), opt-in before.
 *
 * Read, in this order, from the objects the cluster applies:
 * 1. `--feature-gates=…StrictPostBuildSubstitutions=true|false` in the kustomize-controller
 *    Deployment's args (after the flux-system kustomization's patches), else anywhere in a Flux
 *    object that configures Flux (a Kustomization's `spec.patches`, a FluxInstance's
 *    `spec.kustomize.patches`, a HelmRelease's values);
 * 2. the version: the kustomize-controller image tag, the `flux-manifests` OCIRepository tag, a
 *    FluxInstance's `spec.distribution.version` (or the flux-instance chart's `instance.distribution`);
 * 3. else off, and the reason says that the version is unknown.
 */
import { isObj } from '../../load/manifests.js';
import type { Built } from './built.js';

type Obj = Record<string, unknown>;

export interface StrictGate {
  strict: boolean;
  /** Where the setting comes from, for messages. */
  why: string;
}

/** The hint of a `flux-substitution` error that the strict gate causes. */
export const STRICT_HINT = 'define the variable in substitute or a substituteFrom source, give it a default (${NAME:=value}), or annotate the object kustomize.toolkit.fluxcd.io/substitute: disabled';
/** The hint of a `flux-substitution-unset` warning. */
export const UNSET_HINT = 'define the variable in postBuild.substitute or a substituteFrom source, give it a default (${NAME:=value}), write $${NAME} for a literal, or annotate the object kustomize.toolkit.fluxcd.io/substitute: disabled';

const GATE = /StrictPostBuildSubstitutions=(true|false)\b/g;

function lastGate(text: string): boolean | undefined {
  let v: boolean | undefined;
  for (const m of text.matchAll(GATE)) v = m[1] === 'true';
  return v;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const nameOf = (o: Obj): string => (isObj(o.metadata) ? String(o.metadata.name) : '?');

function isKustomizeController(o: Obj): boolean {
  return o.kind === 'Deployment' && nameOf(o) === 'kustomize-controller';
}

function controllerImage(o: Obj): string | undefined {
  const spec = isObj(o.spec) && isObj(o.spec.template) && isObj(o.spec.template.spec) ? o.spec.template.spec : {};
  const containers = Array.isArray(spec.containers) ? spec.containers.filter(isObj) : [];
  return containers.map((c) => str(c.image)).find((i) => i !== undefined && /\/kustomize-controller:/.test(i));
}

/** Minor version of `v?<major>.<minor>…` when major is `major`; undefined for `2.x`, ranges and the like. */
function minorOf(version: string, major: number): number | undefined {
  const m = /^v?(\d+)\.(\d+)(\.(\d+|x|\*))?([-+].*)?$/.exec(version.trim());
  return m && Number(m[1]) === major ? Number(m[2]) : undefined;
}

function distributionVersion(o: Obj): string | undefined {
  const spec = isObj(o.spec) ? o.spec : {};
  if (o.kind === 'FluxInstance') return isObj(spec.distribution) ? str(spec.distribution.version) : undefined;
  if (o.kind === 'HelmRelease' && isObj(spec.values) && isObj(spec.values.instance) && isObj(spec.values.instance.distribution)) return str(spec.values.instance.distribution.version);
  return undefined;
}

export function strictSubstitutions(objects: readonly Built[]): StrictGate {
  const controllers = objects.filter((b) => isKustomizeController(b.obj));
  for (const b of controllers) {
    const v = lastGate(JSON.stringify(b.obj));
    if (v !== undefined) return { strict: v, why: `--feature-gates=StrictPostBuildSubstitutions=${v} on the kustomize-controller Deployment (${b.file})` };
  }
  for (const b of objects) {
    if (!/(^|\.)(toolkit\.fluxcd\.io|fluxcd\.controlplane\.io)\//.test(String(b.obj.apiVersion))) continue;
    const v = lastGate(JSON.stringify(b.obj));
    if (v !== undefined) return { strict: v, why: `StrictPostBuildSubstitutions=${v} in ${String(b.obj.kind)} ${nameOf(b.obj)} (${b.file})` };
  }
  const versions: { minor: number | undefined; text: string; flux: boolean }[] = [];
  for (const b of controllers) {
    const image = controllerImage(b.obj);
    const tag = image?.split(':').pop();
    if (tag !== undefined) versions.push({ minor: minorOf(tag, 1), text: `${image!.split('/').pop()} (${b.file})`, flux: false });
  }
  for (const b of objects) {
    const o = b.obj;
    const spec = isObj(o.spec) ? o.spec : {};
    if (o.kind === 'OCIRepository' && /\/fluxcd\/flux-manifests$/.test(str(spec.url) ?? '') && isObj(spec.ref) && str(spec.ref.tag) !== undefined) {
      versions.push({ minor: minorOf(String(spec.ref.tag), 2), text: `flux-manifests ${String(spec.ref.tag)} (${b.file})`, flux: true });
    }
    const d = distributionVersion(o);
    if (d !== undefined) versions.push({ minor: minorOf(d, 2), text: `${String(o.kind)} ${nameOf(o)} distribution ${d} (${b.file})`, flux: true });
  }
  const known = versions.find((v) => v.minor !== undefined);
  if (known) {
    const on = known.minor! >= 9;
    return { strict: on, why: `${known.text}: StrictPostBuildSubstitutions is ${on ? 'on' : 'off'} by default in ${known.flux ? 'Flux' : 'kustomize-controller'} ${on ? 'from' : 'before'} ${known.flux ? 'v2.9' : 'v1.9'}` };
  }
  return { strict: false, why: 'the repository sets no StrictPostBuildSubstitutions and fixes no Flux version: read as off (Flux before v2.9; from v2.9 it is on and the Kustomization fails)' };
}
