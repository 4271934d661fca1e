/**
 * ApplicationSet → Applications, as the Argo CD ApplicationSet controller computes them
 * (`template.GenerateApplications` and `validateGeneratedApplications`).
 *
 * Contract: for each top-level generator entry in spec order, each of its generators' param
 * sets renders one Application from the generator's template merged over `spec.template`.
 * An empty param set returns the template untouched; otherwise every string is rendered, the
 * resources finalizer is added when the app has none (unless
 * `syncPolicy.preserveResourcesOnDeletion`), `templatePatch` is applied as a strategic merge
 * patch with `spec.project` kept, and `metadata.namespace` becomes the ApplicationSet's.
 * A generator or render error aborts (first error thrown). Afterwards, apps with no name and
 * later apps with a duplicate name are reported in `invalid` and left out of `applications`.
 */
import type { FileGlobbing, GitRepo } from '../ports/git-repo.js';
import type { GeneratorContext } from './generators/generator.js';
import { createGeneratorRegistry } from './generators/registry.js';
import { transform } from './generators/transform.js';
import type { GoTemplateCompiler, RenderData } from './render.js';
import { Renderer, compileObject, fillMissing } from './render.js';
import { applicationPatchSchema, strategicMergePatch } from './smp.js';
import type { Application, ApplicationSet, ApplicationSetTemplate, ClusterSecret, GeneratedApplication, JsonObject, ParamSet } from './types.js';
import { ApplicationSetError, atPath } from './types.js';
import { hasNoKeys, isPlainObject } from './go-value.js';
import { parseYaml } from '../yaml/index.js';
import { CompiledApplication, CompiledApplicationTemplate } from './compiled-app.js';
import { mergeFirstWins } from './generators/matrix.js';
import { isParamsAsGoData } from './go-value.js';
import { storedApplication } from './stored.js';

export const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

export interface GenerateOptions {
  /** The cluster Secrets the cluster generator sees (a list, or a function that lists them). */
  clusterSecrets?: readonly ClusterSecret[] | (() => Promise<readonly ClusterSecret[]>);
  /** The repo server for the git generators. */
  git?: GitRepo;
  /** Git-files pattern language: Argo CD's default `pathspec`, or `doublestar` (new globbing). */
  fileGlobbing?: FileGlobbing;
  /** The Go template engine, required for `goTemplate: true`. */
  compileGoTemplate?: GoTemplateCompiler;
  /** Param set → Go template data (JSON numbers as float64). */
  toGoData?: (params: ParamSet) => unknown;
  /**
   * Compile a template whose shape cannot depend on the parameters once into its holes
   * (compiled-app.ts; default true). false renders every Application as an object: the
   * reference the compiled path is tested against.
   */
  compileTemplates?: boolean;
}

export const defaultGenerateOptions: Required<Pick<GenerateOptions, 'fileGlobbing'>> = { fileGlobbing: 'pathspec' };

export type { GeneratedApplication } from './types.js';

export interface InvalidApplication {
  name: string;
  message: string;
  generated: GeneratedApplication;
}

export interface GenerateResult {
  applications: GeneratedApplication[];
  invalid: InvalidApplication[];
}

export async function generateApplications(appSet: ApplicationSet, options: GenerateOptions = {}): Promise<GenerateResult> {
  const spec = appSet.spec;
  const renderer = new Renderer({
    goTemplate: spec.goTemplate === true,
    goTemplateOptions: spec.goTemplateOptions ?? [],
    compileGoTemplate: options.compileGoTemplate,
    toGoData: options.toGoData,
  });
  const secrets = options.clusterSecrets ?? [];
  const ctx: GeneratorContext = {
    appSet,
    renderer,
    clusterSecrets: typeof secrets === 'function' ? secrets : () => Promise.resolve(secrets),
    git: options.git,
    fileGlobbing: options.fileGlobbing ?? defaultGenerateOptions.fileGlobbing,
    path: 'spec.generators',
  };
  const registry = createGeneratorRegistry();
  const patch = typeof spec.templatePatch === 'string' ? renderer.compile(spec.templatePatch) : undefined;
  const preserve = spec.syncPolicy?.preserveResourcesOnDeletion === true;
  const generated: GeneratedApplication[] = [];
  // Field chains read the parameter sets directly only when they are the Go data (Argo CD's rule).
  const pairs = renderer.goTemplate && !patch && options.compileTemplates !== false && (options.toGoData === undefined || isParamsAsGoData(options.toGoData));

  for (let i = 0; i < spec.generators.length; i++) {
    const path = `spec.generators[${i}]`;
    // A goTemplate matrix comes as its rows when its pairs can be rendered uncombined (ADR 0308).
    const results = await transform(spec.generators[i]!, registry, { ...ctx, path }, undefined, pairs);
    for (const r of results) {
      const ownTemplate = (isPlainObject(r.spec['template']) ? r.spec['template'] : {}) as ApplicationSetTemplate;
      const template = fillMissing(ownTemplate, spec.template) as ApplicationSetTemplate;
      const tmplApp = templateApplication(template);
      const generator = `${path}.${r.kind}`;
      // Literal subtrees below metadata/spec are shared between the generated Applications; the
      // top-level object and metadata (finalizers, namespace are set per app) are always fresh.
      const templatePath = r.spec['template'] ? `${generator}.template` : 'spec.template';
      const render = compileObject(tmplApp, renderer, { shareConstantsBelowDepth: 2, path: templatePath });
      // The same template for every parameter set: compiled once into its holes (ADR 0273).
      const compiled =
        patch || options.compileTemplates === false
          ? undefined
          : CompiledApplicationTemplate.compile(tmplApp, renderer, { preserveResourcesOnDeletion: preserve, namespace: appSet.metadata.namespace, path: templatePath, applyFinalizerRule });
      if (compiled && r.rows !== undefined) {
        for (const { first, second } of r.rows) {
          const firstEmpty = hasNoKeys(first);
          for (const b of second) {
            if (firstEmpty && hasNoKeys(b)) {
              // An empty parameter set: the template untouched, as below.
              const app = storedApplication(structuredClone(tmplApp));
              app.metadata.namespace = appSet.metadata.namespace;
              generated.push({ application: app, params: mergeFirstWins(first, b), generator });
              continue;
            }
            const values = compiled.renderPair(first, b, () => renderer.prepare(mergeFirstWins(first, b)));
            generated.push(compiled.generatedPair(values, first, b, generator));
          }
        }
        continue;
      }
      for (const params of r.params) {
        let app: Application;
        const data = renderer.prepare(params);
        const empty = hasNoKeys(params);
        if (compiled && !empty) {
          generated.push(compiled.generated(compiled.render(data), params, generator));
          continue;
        }
        if (empty) {
          app = structuredClone(tmplApp);
        } else {
          app = render(data) as Application;
          applyFinalizerRule(app, preserve);
        }
        if (patch) app = applyTemplatePatch(app, renderPatch(patch, data));
        app = storedApplication(app);
        app.metadata.namespace = appSet.metadata.namespace;
        generated.push({ application: app, params, generator });
      }
    }
  }
  return validateApplications(appSet, generated);
}

/**
 * Adds the resources finalizer when the rendered app has none, unless the ApplicationSet's
 * `syncPolicy.preserveResourcesOnDeletion` is set.
 */
export function applyFinalizerRule(app: Application, preserveResourcesOnDeletion: boolean): void {
  const fin = app.metadata.finalizers;
  if (!preserveResourcesOnDeletion && (!Array.isArray(fin) || fin.length === 0)) app.metadata.finalizers = [RESOURCES_FINALIZER];
}

function renderPatch(patch: (d: RenderData) => string, data: RenderData): string {
  try {
    return patch(data);
  } catch (e) {
    throw new ApplicationSetError(`error replacing values in templatePatch: ${(e as Error).message}`, { ...atPath('spec.templatePatch'), cause: e });
  }
}

/** The Application a template describes, before rendering (Argo CD `GetTempApplication`). */
export function templateApplication(t: ApplicationSetTemplate): Application {
  const meta: Application['metadata'] = {};
  const m = t.metadata ?? {};
  for (const k of ['name', 'namespace', 'labels', 'annotations', 'finalizers'] as const) {
    if (m[k] !== undefined && m[k] !== null) (meta as Record<string, unknown>)[k] = m[k];
  }
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: meta, spec: (t.spec ?? {}) as JsonObject };
}

/**
 * Applies a rendered `templatePatch` (YAML, or JSON when it starts with `{`) as a strategic merge
 * patch; `spec.project` is restored from the unpatched Application.
 */
export function applyTemplatePatch(app: Application, rendered: string): Application {
  let patch: unknown;
  try {
    patch = rendered.trimStart().startsWith('{') ? JSON.parse(rendered) : parseYaml(rendered, { schema: 'core' });
  } catch (e) {
    throw new ApplicationSetError(`error while converting template to json ${JSON.stringify(rendered)}: ${(e as Error).message}`, { ...atPath('spec.templatePatch'), cause: e });
  }
  if (patch === null || patch === undefined) return app;
  const bad =
    !isPlainObject(patch)
      ? 'the patch is not a mapping'
      : patch['metadata'] !== undefined && patch['metadata'] !== null && !isPlainObject(patch['metadata'])
        ? 'metadata is not a mapping'
        : patch['spec'] !== undefined && patch['spec'] !== null && !isPlainObject(patch['spec'])
          ? 'spec is not a mapping'
          : undefined;
  if (bad) {
    throw new ApplicationSetError(`invalid templatePatch ${JSON.stringify(rendered)}: ${bad}`, atPath('spec.templatePatch', 'the rendered templatePatch must be an Application fragment (metadata/spec)'));
  }
  const patched = strategicMergePatch(app as unknown as JsonObject, patch as JsonObject, applicationPatchSchema) as unknown as Application;
  if (!isPlainObject(patched.metadata)) patched.metadata = {};
  if (!isPlainObject(patched.spec)) patched.spec = {};
  const project = app.spec['project'];
  if (project === undefined) delete patched.spec['project'];
  else patched.spec['project'] = project;
  return patched;
}

/** Argo CD `validateGeneratedApplications` (the name checks; projects and destinations need a cluster). */
export function validateApplications(appSet: ApplicationSet, generated: GeneratedApplication[]): GenerateResult {
  const applications: GeneratedApplication[] = [];
  const invalid: InvalidApplication[] = [];
  const names = new Set<string>();
  const setName = appSet.metadata.name;
  for (const g of generated) {
    const name = applicationName(g);
    if (names.has(name)) {
      invalid.push({ name, message: `ApplicationSet ${setName} contains applications with duplicate name: ${name}`, generated: g });
      continue;
    }
    names.add(name);
    if (name === '') {
      invalid.push({
        name,
        message: `ApplicationSet ${setName} contains an application with no name; a name must be set in the template's metadata.name or via a templatePatch (generateName is not supported)`,
        generated: g,
      });
      continue;
    }
    applications.push(g);
  }
  return { applications, invalid };
}

/** `metadata.name` of a generated Application ('' when it has none), without building it. */
export function applicationName(g: GeneratedApplication): string {
  return g instanceof CompiledApplication ? g.name : (g.application.metadata.name ?? '');
}
