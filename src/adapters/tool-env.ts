/**
 * What a child tool's environment holds (docs/adr/0212-child-process-environment.md), in a module
 * without the process runner: the diff's warm path gives git this environment and runs nothing
 * else (docs/adr/0396-diff-warm-path-fixed-cost.md).
 */

/**
 * The variables a child tool (kustomize, Helm, git) gets from the environment passed in; nothing
 * else reaches it (docs/adr/0212-child-process-environment.md): the process environment holds
 * credentials (cloud keys, tokens) that a build has no business seeing, and that a kustomize
 * exec plugin or a Helm post-renderer could send anywhere.
 */
export const TOOL_ENV_NAMES: readonly string[] = [
  // finding programs, a home for the tools' own files, temporary files
  'PATH', 'HOME', 'USER', 'LOGNAME', 'TMPDIR',
  // Helm's and the XDG directories: caches, repositories, registry logins, plugins
  'XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME',
  'HELM_CACHE_HOME', 'HELM_CONFIG_HOME', 'HELM_DATA_HOME', 'HELM_PLUGINS', 'HELM_REGISTRY_CONFIG', 'HELM_REPOSITORY_CACHE', 'HELM_REPOSITORY_CONFIG',
  'KUSTOMIZE_PLUGIN_HOME',
  // the network as the user reaches it: proxies and certificate authorities
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'all_proxy', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  // git (kustomize's remote bases, fleetplan's revisions): configuration and ssh, never GIT_DIR and the like
  'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_SSL_CAINFO', 'GIT_SSL_CAPATH', 'SSH_AUTH_SOCK',
  // a restriction only: which protocols git may use (kustomize offline: file alone, ADR 0283)
  'GIT_ALLOW_PROTOCOL',
];

/** `env` reduced to TOOL_ENV_NAMES, then `extra` (fixed settings of a tool's own) on top. */
export function toolEnv(env: Readonly<Record<string, string | undefined>>, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of TOOL_ENV_NAMES) {
    const v = env[k];
    if (v !== undefined) out[k] = v;
  }
  return { ...out, ...extra };
}
