/**
 * `fleetplan diff` through the library with `full: true` (every cluster rendered on both sides),
 * as a child process of ./diff.ts, for the comparison with the incremental CLI run. Arguments:
 *   node dist/bench/diff-child.js REPO FROM TO [CACHE_DIR KUSTOMIZE HELM]   (the last three: --leaves)
 */
import { diffFleet } from '../src/api/diff.js';
import { diffJson } from '../src/diff/index.js';

const [root, from, to, cacheDir, kustomize, helm] = process.argv.slice(2);
const d = await diffFleet({
  root: root!,
  from: from!,
  to: to!,
  full: true,
  ...(cacheDir ? { leaves: { env: { ...process.env }, cacheDir, kustomize: kustomize!, helm: helm! } } : {}),
});
process.stdout.write(diffJson(d));
