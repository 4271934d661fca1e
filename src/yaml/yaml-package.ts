/**
 * The `yaml` package (73 CommonJS modules), loaded on first use (ADR 0376): most runs read their
 * YAML with js-yaml or the subset reader and ask the `yaml` package only for a position, a
 * document with errors or an edit, so a run that asks for none of these never loads it. The
 * functions below stand for the package's own names (src/yaml/index.ts exports them); each
 * requires the package on its first call.
 */
import { createRequire } from 'node:module';
import type * as YamlPackage from 'yaml';

let loaded: typeof YamlPackage | undefined;

/** The `yaml` package, required the first time it is asked for (the same module instance an import of 'yaml' gives). */
export function yamlPackage(): typeof YamlPackage {
  return (loaded ??= createRequire(import.meta.url)('yaml') as typeof YamlPackage);
}

// Typed as the package's own functions; the casts only forward the arguments.
type AnyFunction = (...a: unknown[]) => unknown;
export const parseYaml12 = ((...args: unknown[]) => (yamlPackage().parse as AnyFunction)(...args)) as typeof YamlPackage.parse;
export const parseAllDocuments = ((...args: unknown[]) => (yamlPackage().parseAllDocuments as AnyFunction)(...args)) as typeof YamlPackage.parseAllDocuments;
export const parseDocument = ((...args: unknown[]) => (yamlPackage().parseDocument as AnyFunction)(...args)) as typeof YamlPackage.parseDocument;
export const isMap = ((node: unknown) => yamlPackage().isMap(node)) as typeof YamlPackage.isMap;
export const isPair = ((node: unknown) => yamlPackage().isPair(node)) as typeof YamlPackage.isPair;
export const isScalar = ((node: unknown) => yamlPackage().isScalar(node)) as typeof YamlPackage.isScalar;
export const isSeq = ((node: unknown) => yamlPackage().isSeq(node)) as typeof YamlPackage.isSeq;

/** A new `LineCounter` of the `yaml` package (what `new LineCounter()` gives). */
export function lineCounter(): YamlPackage.LineCounter {
  return new (yamlPackage().LineCounter)();
}
