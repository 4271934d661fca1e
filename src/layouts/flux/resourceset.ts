/**
 * flux-operator ResourceSets among the objects a cluster's Flux Kustomizations apply (ADR 0416).
 * flux-operator builds their templates (`spec.resources`, `spec.resourcesTemplate`, `spec.steps`)
 * for each input (`spec.inputs`, `spec.inputsFrom`) in the cluster, with Go templates between
 * `<<` and `>>`. fleetplan does not evaluate them: this says so for each one, naming its file, the
 * line and field of its templates, what it would build and where its inputs come from, so that a
 * plan without the objects they make does not look complete.
 */
import type { Finding } from '../../model/finding.js';
import { isObj } from '../../load/manifests.js';
import type { YamlPath } from '../../model/source.js';

type Obj = Record<string, unknown>;

/** An object and where it is written (the flux layout's Built; declared here so that the helmfile-flux layout can use this without an import cycle). */
interface Built {
  obj: Obj;
  file: string;
  locate(path: YamlPath): { line: number; column: number };
}

const TEMPLATE_FIELDS = ['resources', 'resourcesTemplate', 'steps'] as const;

function isResourceSet(o: Obj): boolean {
  return o.kind === 'ResourceSet' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('fluxcd.controlplane.io/');
}

function meta(o: Obj): Obj {
  return isObj(o.metadata) ? o.metadata : {};
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** `Kind namespace/name` of one resource template, as written (its fields may be templates). */
function resourceText(r: unknown): string {
  if (!isObj(r)) return '(not an object)';
  const m = meta(r);
  const ns = text(m.namespace);
  return `${text(r.kind) ?? '(no kind)'} ${ns !== undefined ? `${ns}/` : ''}${text(m.name) ?? '(no name)'}`;
}

/** What the spec builds: its resources (by kind and name), its YAML template, its steps. */
function templatesText(spec: Obj): string {
  const parts: string[] = [];
  const resources = Array.isArray(spec.resources) ? spec.resources : [];
  if (resources.length) parts.push(`its ${resources.length} resource${resources.length === 1 ? '' : 's'} (${resources.map(resourceText).join(', ')})`);
  if (typeof spec.resourcesTemplate === 'string' && spec.resourcesTemplate.trim() !== '') parts.push('its spec.resourcesTemplate');
  const steps = Array.isArray(spec.steps) ? spec.steps.filter(isObj) : [];
  if (steps.length) parts.push(`its ${steps.length} spec.steps (${steps.map((s) => text(s.name) ?? '(no name)').join(', ')})`);
  return parts.length ? parts.join(' and ') : 'nothing (no spec.resources, spec.resourcesTemplate or spec.steps)';
}

/** One `spec.inputsFrom` entry: a provider by name, or those a label selector picks. */
function providerText(ref: unknown): string {
  if (!isObj(ref)) return '(not an object)';
  const kind = text(ref.kind) ?? 'ResourceSetInputProvider';
  if (typeof ref.name === 'string') return `${kind} ${ref.name}`;
  return `${kind}s selected by ${isObj(ref.selector) ? 'spec.inputsFrom selector' : 'no name or selector'}`;
}

/** How many times, and from what, flux-operator builds the templates. */
function inputsText(spec: Obj): string {
  const inputs = Array.isArray(spec.inputs) ? spec.inputs : [];
  const from = Array.isArray(spec.inputsFrom) ? spec.inputsFrom : [];
  const staticPart = inputs.length ? `each of its ${inputs.length} spec.inputs` : '';
  const fromPart = from.length ? `each input of spec.inputsFrom (${from.map(providerText).join(', ')}, which the cluster resolves)` : '';
  if (staticPart && fromPart) return `for ${staticPart} and ${fromPart}`;
  if (staticPart || fromPart) return `for ${staticPart || fromPart}`;
  return 'once (no inputs)';
}

/**
 * The plan notes (`not read: …`) and info findings (`flux-resourceset-not-read`, at the template
 * field) for the ResourceSets among `objects`, the objects the cluster's Kustomizations apply.
 */
export function resourceSetsNotRead(objects: readonly Built[], cluster: string): { notes: string[]; findings: Finding[] } {
  const notes: string[] = [];
  const findings: Finding[] = [];
  for (const b of objects) {
    if (!isResourceSet(b.obj)) continue;
    const spec = isObj(b.obj.spec) ? b.obj.spec : {};
    const m = meta(b.obj);
    const id = `${text(m.namespace) ?? 'default'}/${String(m.name)}`;
    const field = TEMPLATE_FIELDS.find((f) => spec[f] !== undefined);
    const at = field ? b.locate(['spec', field]) : b.locate(['metadata', 'name']);
    const what = `flux-operator builds ${templatesText(spec)} ${inputsText(spec)} in the cluster; fleetplan does not evaluate ResourceSet templates: the objects they make, and the Flux Kustomizations and HelmReleases among them, are not in the plan`;
    notes.push(`not read: ResourceSet ${id} (${b.file}:${at.line} ${field ? `spec.${field}` : 'metadata.name'}): ${what}`);
    findings.push({
      severity: 'info',
      code: 'flux-resourceset-not-read',
      message: `cluster ${cluster}: ResourceSet ${id}: ${what}`,
      file: b.file,
      line: at.line,
      hint: `\`flux-operator build resourceset -f ${b.file}\` prints what it makes${Array.isArray(spec.inputsFrom) && spec.inputsFrom.length ? ' (with --inputs-from for the inputs of its providers)' : ''}`,
    });
  }
  return { notes, findings };
}
