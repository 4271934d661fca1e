/**
 * A Flux object read from the repository with the file it came from and a locator for its fields:
 * its own module, so that modules which only name the type (feature-gates.ts, the helmfile-flux
 * gate) do not import build.ts, which imports the helmfile-flux reader.
 */
import type { YamlPath } from '../../model/source.js';

export interface Built {
  obj: Record<string, unknown>;
  file: string;
  locate(path: YamlPath): { line: number; column: number };
}
