/**
 * The generator registry, built terminal → nested → top-level as in Argo CD: the children of a
 * nested matrix/merge only know the terminal generators, so nesting stops at two levels by
 * construction.
 */
import type { GeneratorRegistry } from './generator.js';
import { ClusterGenerator } from './cluster.js';
import { GitGenerator } from './git.js';
import { ListGenerator } from './list.js';
import { MatrixGenerator } from './matrix.js';
import { MergeGenerator } from './merge.js';

/** `terminalOverrides` replaces terminal generators (tests stub the git generator this way). */
export function createGeneratorRegistry(terminalOverrides: GeneratorRegistry = {}): GeneratorRegistry {
  const terminal: GeneratorRegistry = { list: new ListGenerator(), clusters: new ClusterGenerator(), git: new GitGenerator(), ...terminalOverrides };
  const nested: GeneratorRegistry = { ...terminal, matrix: new MatrixGenerator(terminal), merge: new MergeGenerator(terminal) };
  return { ...terminal, matrix: new MatrixGenerator(nested), merge: new MergeGenerator(nested) };
}
