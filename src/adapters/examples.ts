/** The example fleets shipped with the package (examples/<name>), copied by `fleetplan init`. */
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/src/adapters/examples.js → the package root is three levels up from dist/src/adapters. */
export function examplesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'examples')) && existsSync(join(dir, 'package.json'))) return join(dir, 'examples');
    dir = dirname(dir);
  }
  throw new Error('examples directory not found next to the fleetplan package');
}

export function listExamples(): string[] {
  return readdirSync(examplesDir(), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
}

/** Copies an example into `target`, never overwriting an existing file. Returns the files written. */
export function copyExample(name: string, target: string): void {
  cpSync(join(examplesDir(), name), resolve(target), { recursive: true, errorOnExist: true, force: false });
}
