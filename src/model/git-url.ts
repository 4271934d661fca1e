/**
 * Whether two Git URLs name the same hosted repository (ADR 0287, amended by ADR 0305).
 *
 * Argo CD's `git.NormalizeGitURL` (util/git/git.go) lowercases the whole URL, drops a final `.git`
 * and turns the scp form `git@host:org/repo` into `git@host/org/repo`; it keeps `https://…` and
 * the ssh forms apart. fleetplan asks a wider question — does this source read the files of the
 * clone in front of us? — and the same repository reached over ssh or https has the same files.
 * So on top of Argo CD's rules it drops user info and the scheme (ssh, git, http, https and scp
 * forms compare equal), a trailing `/`, and the default https port.
 */

/** The normal form of a Git URL for comparing two. */
export function normalizeGitURL(url: string): string {
  let u = url.trim().toLowerCase();
  const scp = /^([\w.-]+@)?([\w.-]+):(?!\/\/)(.+)$/.exec(u);
  if (scp) u = `https://${scp[2]}/${scp[3]}`;
  u = u.replace(/^(ssh|git|http|https):\/\/([^@/]+@)?/, 'https://').replace(/\/+$/, '').replace(/\.git$/, '');
  const m = /^https:\/\/([^/]+)(.*)$/.exec(u);
  return m ? `https://${m[1]!.replace(/:443$/, '')}${m[2]}` : u;
}

/**
 * Whether two repoURLs name the same repository: `https://host/org/repo`, `…/repo.git`, `…/repo/`,
 * another letter case (as Argo CD, and as GitHub and GitLab, treat it), and the ssh and scp forms
 * (`git@host:org/repo.git`) all do. An Application that writes the fleet's URL another way still
 * reads the fleet's repository.
 */
export function sameRepository(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return a === b || normalizeGitURL(a) === normalizeGitURL(b);
}

/**
 * Whether a remote URL names a Git server Argo CD could read, as opposed to a path on this machine
 * (`/srv/mirror/repo`, `../repo`, `file:///…`): a clone made from a local copy has such an origin,
 * and it says nothing about which repoURLs are this repository.
 */
export function isServerURL(url: string | undefined): url is string {
  if (url === undefined) return false;
  const u = url.trim();
  return u !== '' && !/^(file:|\/|\.\.?(\/|$)|~)/i.test(u);
}

/**
 * Why a repoURL is a placeholder the user fills in before applying, not a repository (undefined
 * when it reads as a URL): a word such as `REPLACE` or `CHANGEME`, a `<repo-url>`, an envsubst
 * `${GITOPS_REPO}` filled in when the file is applied, or a URL with an empty host (`https:///x`).
 * Such a value names no repository, so it is neither this one nor "another repository".
 */
export function placeholderRepoURL(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const u = url.trim();
  if (u === '') return 'it is empty';
  if (/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/.test(u)) return 'it holds a variable filled in when the file is applied (envsubst or a plugin)';
  if (/<[^>]*>/.test(u)) return 'it holds a <…> placeholder';
  // Upper case inside a URL (https://github.com/YOUR_ORG/repo), any case when it is the whole value.
  if (/\b(REPLACE(_ME)?|CHANGE_?ME|YOUR_[A-Z_]+|PLACEHOLDER)\b/.test(u) || /^(replace(_?me)?|change_?me|todo|fixme|placeholder|x{3,})$/i.test(u)) return 'it is a placeholder word';
  if (/^[a-z][a-z0-9+.-]*:\/\/(\/|$)/i.test(u)) return 'its host is empty';
  // Neither a URL with a scheme, nor scp form (git@host:org/repo), nor a host path (github.com/org/repo), nor oci.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(u) && !/^([\w.-]+@)?[\w.-]+:(?!\/\/)./.test(u) && !/^[\w-]+(\.[\w-]+)+(:\d+)?\//.test(u) && isServerURL(u)) return 'it is not a URL';
  return undefined;
}
