/**
 * The one interface every ApplicationSet generator implements, and what it is given.
 * A generator maps its own spec (the `list`, `clusters`, `git`… object of a generator entry)
 * to parameter sets; everything outside comes in through the context's ports.
 */
import type { FileGlobbing, GitRepo } from '../../ports/git-repo.js';
import type { Renderer } from '../render.js';
import type { ApplicationSet, ClusterSecret, JsonObject, ParamSet } from '../types.js';

export interface GeneratorContext {
  readonly appSet: ApplicationSet;
  readonly renderer: Renderer;
  /** The cluster Secrets of the Argo CD namespace (a thrown error is a list failure). */
  readonly clusterSecrets: () => Promise<readonly ClusterSecret[]>;
  /** The repo server the git generators read; undefined when no repository was given. */
  readonly git: GitRepo | undefined;
  readonly fileGlobbing: FileGlobbing;
  /** The spec path of the generator being evaluated, for error locations. */
  readonly path: string;
}

export interface Generator {
  generate(spec: JsonObject, ctx: GeneratorContext): Promise<ParamSet[]>;
  /** The matrix only: its rows before the pairs are combined (matrix.ts). */
  generateRows?(spec: JsonObject, ctx: GeneratorContext): Promise<MatrixRows>;
}

/** One parameter set of a matrix's first child and the sets its second child gave for it. */
export interface MatrixRow {
  first: ParamSet;
  second: readonly ParamSet[];
}

export interface MatrixRows {
  /** The rows (goTemplate), each pair combined by `mergeFirstWins(first, second[i])`; undefined in flat mode. */
  rows: readonly MatrixRow[] | undefined;
  /** The combined parameter sets, in row order (made on the first call). */
  params: () => ParamSet[];
}

/** Generators by their spec key (`list`, `clusters`, `git`, `matrix`, `merge`). */
export type GeneratorRegistry = Readonly<Record<string, Generator>>;

/** Spec keys in the order of Argo CD's `ApplicationSetGenerator` struct fields. */
export const GENERATOR_KINDS = [
  'list',
  'clusters',
  'git',
  'scmProvider',
  'clusterDecisionResource',
  'pullRequest',
  'matrix',
  'merge',
  'plugin',
] as const;
