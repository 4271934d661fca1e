/**
 * The rosa-regional layout's entry: which generation of the repository this is. The newer
 * `config/` + `deploy/` generation (./config-dir.ts) when there is no config.yaml, else the
 * config.yaml generation (./reader.ts). Kept apart so that neither reader imports the other's
 * chooser (config-dir.ts builds on reader.ts).
 */
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { LoadResult } from '../../load/native.js';
import { FLEET_FILE } from '../../model/constants.js';
import { ROSA_CONFIG_FILE, detectRosaConfigFile, loadRosaConfigFile } from './reader.js';
import { detectRosaConfigDir, loadRosaConfigDir } from './config-dir.js';

export function detectRosaRegional(fs: RepoFileSystem): boolean {
  if (!fs.exists(FLEET_FILE) && !fs.exists(ROSA_CONFIG_FILE) && detectRosaConfigDir(fs)) return true;
  return detectRosaConfigFile(fs);
}

export function loadRosaRegional(fs: RepoFileSystem): LoadResult {
  if (!fs.exists(ROSA_CONFIG_FILE) && detectRosaConfigDir(fs)) return loadRosaConfigDir(fs);
  return loadRosaConfigFile(fs);
}
