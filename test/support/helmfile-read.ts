/** Reads one helmfile of a repository the test writes, as the helmfile-flux layout reads it. */
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import { readHelmfile } from '../../src/layouts/helmfile-flux/reader.js';
import type { Finding } from '../../src/model/finding.js';
import type { HelmfileRelease } from '../../src/model/graphs.js';
import { removeTree, writeTree } from './fleet-fixture.js';

export function readHelmfileFixture(files: Record<string, string>, file: string): { releases: HelmfileRelease[]; findings: Finding[] } {
  const dir = writeTree(files);
  try {
    const releases: HelmfileRelease[] = [];
    const findings: Finding[] = [];
    readHelmfile(nodeFileSystem(dir), file, findings, releases);
    return { releases, findings };
  } finally {
    removeTree(dir);
  }
}
