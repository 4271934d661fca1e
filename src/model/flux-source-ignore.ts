/**
 * What source-controller leaves out of a GitRepository artifact by default (fluxcd/pkg
 * sourceignore: ExcludeVCS, ExcludeExt, ExcludeCI, ExcludeExtra), as gitignore patterns match them:
 * a pattern without a slash matches a name at any depth, `dir/` a folder at any depth. The
 * kustomization Flux generates for a folder without one lists only what the artifact holds
 * (ADR 0411). A repository's `.sourceignore` files and a GitRepository's `spec.ignore` are not read.
 */
const IGNORED_FOLDERS = new Set(['.git', '.github', '.circleci']);
const IGNORED_NAMES = new Set([
  '.gitignore', '.gitmodules', '.gitattributes',
  '.travis.yml', '.gitlab-ci.yml', 'appveyor.yml', '.drone.yml', 'cloudbuild.yaml', 'codeship-services.yml', 'codeship-steps.yml',
  '.goreleaser.yml', '.sops.yaml', '.flux.yaml',
]);
const IGNORED_EXTENSIONS = /\.(jpg|jpeg|gif|png|wmv|flv|zip)$|\.tar\.gz$/;

/** True when source-controller's default exclusions leave the repository path `path` out of the artifact. */
export function fluxSourceIgnored(path: string): boolean {
  const segs = path.split('/').filter((s) => s !== '' && s !== '.');
  const name = segs[segs.length - 1] ?? '';
  return segs.slice(0, -1).some((s) => IGNORED_FOLDERS.has(s)) || IGNORED_FOLDERS.has(name) || IGNORED_NAMES.has(name) || IGNORED_EXTENSIONS.test(name);
}
