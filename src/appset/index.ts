/**
 * appset — Argo CD ApplicationSet generators evaluated offline.
 *
 * Inputs: an ApplicationSet (decoded), cluster Secrets (a list) and a `GitRepo` port (the repo
 * server, usually `createRepoServer` over the git adapter). Output: the Applications Argo CD
 * would generate, each with the parameter set it came from, and the ones Argo would reject
 * (no name, duplicate name). Semantics follow shared/conformance/APPSET-SPEC.md.
 *
 * Invariants: pure (all I/O through the ports); every template string is compiled once per
 * evaluation; generators implement one interface (`Generator.generate(spec, ctx)`); matrix and
 * merge nest at most two levels, by how the registry is built. Generated Applications share
 * literal (untemplated) subtrees and param sets share unchanged values: treat results as
 * immutable (copy before editing).
 */
export { generateApplications, applyTemplatePatch, applyFinalizerRule, templateApplication, validateApplications, RESOURCES_FINALIZER, defaultGenerateOptions } from './applications.js';
export type { GenerateOptions, GenerateResult, GeneratedApplication, InvalidApplication } from './applications.js';
export { createRepoServer, createMemoryTree, compareWalkOrder } from './repo-server.js';
export { createGeneratorRegistry } from './generators/registry.js';
export type { Generator, GeneratorContext, GeneratorRegistry } from './generators/generator.js';
export { Renderer, compileObject, renderObject, fillMissing, parseFastTemplate } from './render.js';
export type { GoTemplateCompiler, MissingKey, RenderOptions } from './render.js';
export { normalizeName } from './normalize.js';
export { compileSelector } from './selector.js';
export { strategicMergePatch, applicationPatchSchema } from './smp.js';
export { loadApplicationSet, parseClusterSecrets } from './load.js';
export type { ApplicationSet, Application, ApplicationSetTemplate, ClusterSecret, ParamSet, LabelSelector } from './types.js';
export { ApplicationSetError } from './types.js';
export { formatApplications, sortApplications, defaultFormatOptions } from './format.js';
export type { FormatOptions, OutputFormat } from './format.js';
export { goTemplateEngine } from './go-engine.js';
