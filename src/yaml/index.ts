/**
 * The one module that parses and emits YAML: no other folder imports a YAML library (lint rule,
 * scripts/stages.mjs). Two libraries stand behind it, each for what it does best (ADR 0005):
 * js-yaml for fast plain-data parsing and dumping, `yaml` for positions (LineCounter), documents
 * with errors at line and column, and comment-preserving edits (its CST). Callers name the schema
 * they need instead of passing library objects, so a YAML dialect is chosen here, once.
 */
import jsYaml from 'js-yaml';
import { GO_YAML_V2_DUMP_SCHEMA, GO_YAML_V2_SCHEMA, KYAML_SCHEMA } from './go-yaml.js';
import { loadAllAsJson } from './sigs-yaml.js';

/**
 * - `default`: YAML 1.1-flavoured (js-yaml's default: timestamps, merge keys), as kubectl and
 *   kustomize output reads.
 * - `core`: YAML 1.2 core (no timestamps; `yes` is a string), as Argo CD's Go decoders read values.
 * - `json`: JSON-compatible scalars only.
 * - `kubernetes`: go-yaml v2, as sigs.k8s.io/yaml reads a manifest for kubectl, Argo CD, Helm and
 *   Flux (`0755` is 493, `on` is true; go-yaml.ts). Manifests that fleetplan reads and writes back
 *   are read with it and written with it, so that they mean what they meant to those readers.
 * - `kyaml`: go-yaml v3 as kustomize reads the resources it builds (`on` is a string, `0755` is
 *   493, `2024-01-01` is `2024-01-01T00:00:00Z`): Flux objects and patches of the repository,
 *   which reach the cluster through a kustomize build (go-yaml.ts).
 */
export type YamlSchemaName = 'default' | 'core' | 'json' | 'kubernetes' | 'kyaml';

/** A custom schema made in this module (see go-yaml.ts). */
export type YamlSchema = jsYaml.Schema;

export interface ParseOptions {
  schema?: YamlSchemaName | YamlSchema;
  /** Duplicate keys: the later one wins (as a Go map decoder does) instead of an error. */
  json?: boolean;
  /** Named in error messages. */
  filename?: string;
  /**
   * With the `kubernetes` schema (parseYamlAll): the documents as sigs.k8s.io/yaml turns them into
   * JSON for kubectl, Argo CD and Helm: keys that are not strings written as Go writes them, keys
   * it refuses (null, beyond int64) refused at their line, integers beyond 2^53 as BigInt (sigs-yaml.ts).
   */
  asJson?: boolean;
}

function schemaOf(s: ParseOptions['schema']): jsYaml.Schema {
  if (s === undefined || s === 'default') return jsYaml.DEFAULT_SCHEMA;
  if (s === 'core') return jsYaml.CORE_SCHEMA;
  if (s === 'json') return jsYaml.JSON_SCHEMA;
  if (s === 'kubernetes') return GO_YAML_V2_SCHEMA;
  if (s === 'kyaml') return KYAML_SCHEMA;
  return s;
}

function loadOptions(o: ParseOptions): jsYaml.LoadOptions {
  if (o.asJson && o.schema !== 'kubernetes') throw new Error('asJson reads with the kubernetes schema only');
  return { schema: schemaOf(o.schema), ...(o.json ? { json: true } : {}), ...(o.filename !== undefined ? { filename: o.filename } : {}) };
}

/** One YAML document as plain data; throws on a syntax error. */
export function parseYaml(text: string, options: ParseOptions = {}): unknown {
  return jsYaml.load(text, loadOptions(options));
}

/** Every document of a multi-document stream as plain data; throws on a syntax error. */
export function parseYamlAll(text: string, options: ParseOptions = {}): unknown[] {
  if (options.asJson) return loadAllAsJson(text, loadOptions(options));
  return jsYaml.loadAll(text, undefined, loadOptions(options));
}

export interface DumpOptions {
  /** Sort map keys (deterministic output). */
  sortKeys?: boolean;
  /** -1: never fold long lines. */
  lineWidth?: number;
  /** Write repeated objects in full instead of anchors and aliases. */
  noRefs?: boolean;
  /** `kubernetes`: quote every string go-yaml v2 would read as something else (`'0755'`, `'1_000'`). */
  schema?: 'default' | 'kubernetes';
}

/** Plain data as a YAML document (js-yaml's emitter; fleetplan's rendered files use emit.ts). */
export function dumpYaml(value: unknown, options: DumpOptions = {}): string {
  const { schema, ...rest } = options;
  return jsYaml.dump(value, schema === 'kubernetes' ? { ...rest, schema: GO_YAML_V2_DUMP_SCHEMA } : rest);
}

export { dumpSorted, stringAt as dumpSortedString } from './sorted-dump.js';

/** A value read with `asJson`, its BigInts made numbers, to be handed on as JSON (sigs-yaml.ts). */
export { withNumbers } from './sigs-yaml.js';

/**
 * One document as plain data with the `yaml` package's YAML 1.2 reading (its `parse`): what the
 * Helm values semantics in layouts/gitops-standards were checked against.
 */
export { parseYaml12 } from './yaml-package.js';

/** `customTags` for the `yaml` package's document API with the `kyaml` schema's reading. */
export { kyamlTags } from './go-yaml.js';

// The `yaml` package's document API, for readers that need positions or edit files in place. Each
// name loads the package on its first call (./yaml-package.ts), not when this module is imported.
export { isMap, isPair, isScalar, isSeq, lineCounter, parseAllDocuments, parseDocument } from './yaml-package.js';
export type { Document, LineCounter, Node as YamlNode, Pair, Scalar, YAMLMap } from 'yaml';
