/** Git URLs compared as Argo CD compares repositories (ADR 0287). */

/** Argo CD's normal form of a Git URL for comparing two (scheme, `.git`, trailing slash, case of the host). */
export function normalizeGitURL(url: string): string {
  let u = url.trim();
  const scp = /^([\w.-]+@)?([\w.-]+):(?!\/\/)(.+)$/.exec(u);
  if (scp) u = `https://${scp[2]}/${scp[3]}`;
  u = u.replace(/^(ssh|git|http|https):\/\/([^@/]+@)?/i, 'https://').replace(/\/+$/, '').replace(/\.git$/i, '');
  const m = /^https:\/\/([^/]+)(.*)$/.exec(u);
  return m ? `https://${m[1]!.toLowerCase().replace(/:443$/, '')}${m[2]}` : u;
}

/**
 * Whether two repoURLs name the same repository: `https://host/org/repo`, `…/repo.git`, `…/repo/`,
 * a different case of the host, and the ssh and scp forms (`git@host:org/repo.git`) all do. An
 * Application that writes the fleet's URL another way still reads the fleet's repository.
 */
export function sameRepository(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return a === b || normalizeGitURL(a) === normalizeGitURL(b);
}
