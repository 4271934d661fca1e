/** Domain types of the ApplicationSet evaluator. Specs are the decoded YAML/JSON, lightly typed. */
import { InputError } from '../errors/index.js';
import type { ErrorDetails } from '../errors/index.js';

/** One generated parameter set: flat dotted keys (flat mode) or nested objects (goTemplate mode). */
export type ParamSet = Record<string, unknown>;

export type JsonObject = Record<string, unknown>;

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[] | null;
}

export interface LabelSelector {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirement[] | null;
}

/** `spec.template` / a generator's `template`: Application metadata and spec. */
export interface ApplicationSetTemplate {
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
  };
  spec?: JsonObject;
}

/** The parts of an ApplicationSet the evaluator reads. */
export interface ApplicationSet {
  metadata: { name: string; namespace: string };
  spec: {
    goTemplate?: boolean;
    goTemplateOptions?: string[];
    generators: JsonObject[];
    template: ApplicationSetTemplate;
    templatePatch?: string;
    syncPolicy?: { preserveResourcesOnDeletion?: boolean } & JsonObject;
    applyNestedSelectors?: boolean;
  };
}

/** A generated Application (plain JSON). */
export interface Application {
  apiVersion: string;
  kind: string;
  metadata: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
  } & JsonObject;
  spec: JsonObject;
}

/** A cluster Secret as the cluster generator sees it: `data` already decoded to text. */
export interface ClusterSecret {
  /** Secret metadata.name (not the cluster name, which is `data.name`). */
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  data: Record<string, string>;
}

/**
 * An ApplicationSet that cannot be evaluated. The message is Argo CD's own text where Argo has
 * one; `location.path` names the field (e.g. `spec.generators[0].matrix.generators[1]`).
 */
export class ApplicationSetError extends InputError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, { code: 'applicationset', ...details });
  }
}

/**
 * The generators Argo CD runs by asking a service (the Git provider's API, a plugin's HTTP service,
 * a duck-typed decision resource on the cluster): valid for Argo CD, not evaluated offline.
 */
export const SERVICE_GENERATORS: ReadonlySet<string> = new Set(['scmProvider', 'clusterDecisionResource', 'pullRequest', 'plugin']);

/** A service generator (SERVICE_GENERATORS) met while generating: what it generates is unknown offline. */
export class ServiceGeneratorError extends ApplicationSetError {
  constructor(readonly generator: string, message: string, details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** The service generator an ApplicationSet error comes from (through matrix/merge wrapping), if any. */
export function serviceGeneratorOf(e: unknown): ServiceGeneratorError | undefined {
  for (let x = e, i = 0; x instanceof Error && i < 16; x = x.cause, i++) if (x instanceof ServiceGeneratorError) return x;
  return undefined;
}

/** Error details naming a spec field; the CLI adds the file and line. */
export function atPath(path: string, hint?: string): ErrorDetails {
  return hint === undefined ? { location: { file: '', path } } : { location: { file: '', path }, hint };
}

/** An Application an ApplicationSet generates, with what it was generated from. */
export interface GeneratedApplication {
  /** The Application (built on first use when it came from a compiled template). */
  application: Application;
  /** The parameter set the Application was rendered from. */
  params: ParamSet;
  /** Spec path of the generator that produced it, e.g. `spec.generators[0].matrix`. */
  generator: string;
}
