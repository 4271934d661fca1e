/**
 * The repository's Argo CD repository and repo-creds Secrets (docs/adr/0316-argocd-repository-secrets.md):
 * found in its YAML files, whatever the layout, since Argo CD applies whatever of them the
 * repository holds. Read once, on first use (only a remote chart or an OCI source needs them).
 */
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { LocatedObject, RepositorySecret } from '../model/argocd-repositories.js';
import { SECRET_TYPE_LABEL, readRepositorySecrets } from '../model/argocd-repositories.js';
import { located } from '../yaml/documents.js';
import { repositoryYamlFiles } from './flux-variables.js';

const MAX_FILE_CHARS = 2_000_000;

export function scanRepositorySecrets(fs: RepoFileSystem): RepositorySecret[] {
  const docs: LocatedObject[] = [];
  for (const file of repositoryYamlFiles(fs).sort()) {
    let text: string;
    try {
      text = fs.readText(file);
    } catch {
      continue;
    }
    if (text.length > MAX_FILE_CHARS || !text.includes(SECRET_TYPE_LABEL) || !/\b(repository|repo-creds)\b/.test(text)) continue;
    let parsed;
    try {
      parsed = located(text);
    } catch {
      continue;
    }
    for (const d of parsed) docs.push({ file, line: d.locate([]).line, value: d.value });
  }
  return readRepositorySecrets(docs);
}
