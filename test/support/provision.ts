/**
 * Helpers for provisioning tests: the real `kustomize build` (kubectl 1.33 in .tools/bin), object
 * comparison that lists every difference by path, and the upstream CRD schemas of crds/ in the
 * shared data (INDEX.json) for the served version of each kind: only the real-data suite
 * (test/real) calls loadCrdSchemas.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsYaml from 'js-yaml';
import type { JsonSchema } from '../../src/load/json-schema.js';
import { requireTools, removeDir, tempDir, toolEnv } from '../helpers/tools.js';
import { sharedPath } from './shared.js';

export type Obj = Record<string, unknown> & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };

/** `kubectl kustomize DIR` → its objects. */
export function kustomizeBuild(dir: string): Obj[] {
  const { kubectl } = requireTools();
  const home = tempDir('home');
  try {
    const out = execFileSync(kubectl, ['kustomize', dir], { env: toolEnv(home), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return (jsYaml.loadAll(out) as Obj[]).filter((o) => o !== null);
  } finally {
    removeDir(home);
  }
}

export function group(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0]! : '';
}

/** Identity of an object for comparison: API group, kind and name (namespaces differ in defects). */
export function objectKey(o: Obj): string {
  return `${group(o.apiVersion) || 'core'}/${o.kind}/${o.metadata.name}`;
}

export interface Difference {
  object: string;
  path: string;
  ours: unknown;
  theirs: unknown;
}

/** Every leaf where two values differ, with a JSON-pointer-like path. */
export function diffValues(object: string, ours: unknown, theirs: unknown, path = ''): Difference[] {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(ours) && isObj(theirs)) {
    const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
    return keys.flatMap((k) => diffValues(object, ours[k], theirs[k], `${path}/${k}`));
  }
  if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length) {
    return ours.flatMap((v, i) => diffValues(object, v, theirs[i], `${path}/${i}`));
  }
  return JSON.stringify(ours) === JSON.stringify(theirs) ? [] : [{ object, path: path || '/', ours, theirs }];
}

/** Object-by-object differences between two sets; a missing object is one difference at path `/`. */
export function diffObjectSets(ours: Obj[], theirs: Obj[]): Difference[] {
  const a = new Map(ours.map((o) => [objectKey(o), o]));
  const b = new Map(theirs.map((o) => [objectKey(o), o]));
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  return keys.flatMap((k) => {
    const x = a.get(k);
    const y = b.get(k);
    if (!x || !y) return [{ object: k, path: '/', ours: x ? 'present' : 'absent', theirs: y ? 'present' : 'absent' }];
    return diffValues(k, x, y);
  });
}

/** A Secret whose data keys end in .yaml, with those values decoded and parsed (to compare content, not bytes). */
export function decodeYamlSecret(o: Obj): Obj {
  if (o.kind !== 'Secret' || typeof o.data !== 'object' || o.data === null) return o;
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o.data as Record<string, string>)) {
    data[k] = k.endsWith('.yaml') ? jsYaml.load(Buffer.from(v, 'base64').toString('utf8')) : v;
  }
  return { ...o, data };
}

interface CrdIndexEntry {
  group: string;
  kind: string;
  servedVersions: string[];
  file: string;
}

/**
 * The openAPIV3Schema of each (group, served version, kind) in the CRD index, made strict: an
 * object schema with properties and no additionalProperties rejects unknown fields (the API
 * server would prune them, silently losing what the generator meant to say).
 */
export function loadCrdSchemas(): Map<string, JsonSchema> {
  const crds = sharedPath('crds');
  const indexFile = join(crds, 'INDEX.json');
  if (!existsSync(indexFile)) throw new Error(`${indexFile} is missing: the upstream CRDs are needed to check generated objects`);
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as CrdIndexEntry[];
  const out = new Map<string, JsonSchema>();
  for (const e of index) {
    const crd = jsYaml.load(readFileSync(join(crds, e.file), 'utf8')) as { spec: { versions: { name: string; served: boolean; schema: { openAPIV3Schema: JsonSchema } }[] } };
    for (const v of crd.spec.versions) {
      if (!v.served) continue;
      out.set(`${e.group}/${v.name}/${e.kind}`, strict(v.schema.openAPIV3Schema));
    }
  }
  return out;
}

function strict(s: JsonSchema): JsonSchema {
  const o: JsonSchema = { ...s };
  if (o.properties) {
    o.properties = Object.fromEntries(Object.entries(o.properties).map(([k, v]) => [k, strict(v)]));
    if (o.additionalProperties === undefined && !o['x-kubernetes-preserve-unknown-fields']) o.additionalProperties = false;
  }
  if (o.items) o.items = strict(o.items);
  if (typeof o.additionalProperties === 'object') o.additionalProperties = strict(o.additionalProperties);
  // allOf/anyOf/oneOf branches of a structural schema only add value constraints to the fields
  // declared above; they are left as they are.
  return o;
}
