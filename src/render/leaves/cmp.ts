/**
 * The Argo CD config-management plugin (CMP) contract, as a library: `discover` says whether a
 * source directory is a kustomization; `generate` builds it with kustomize and substitutes
 * variables strictly (see docs/adr/0052-cmp-plugin.md).
 *
 * Which variables exist: the declared names (the plugin's `--variable` list), whose values are
 * read ONLY from `ARGOCD_ENV_<NAME>` (Argo CD's prefix for Application `plugin.env`, and the
 * prefix the generated sidecar gives the `environment-variables` ConfigMap), plus Argo CD's
 * build environment (`ARGOCD_APP_NAME`, …) under its own names. Nothing else in the
 * environment is ever substituted. `$VAR` without braces is left alone; `$${X}` is a literal.
 */
import { posix, relative, resolve, sep } from 'node:path';
import { InputError, ToolError } from '../../errors/index.js';
import type { SourceReader } from '../../ports/source-reader.js';
import type { HelmTool, KustomizeTool } from '../../ports/tools.js';
import { InputWalker, KUSTOMIZATION_FILE_NAMES } from './inputs.js';
import { findVariableReference, parseManifests, substituteStream } from './manifests.js';
import { KUSTOMIZE_BUILD_FLAGS } from './render.js';
import { ARGOCD_ENV_PREFIX, checkVariableNames } from '../../generate/cmp-plugin.js';

/** Argo CD's standard build environment, available to every manifest without declaration. */
export const CMP_BUILTIN_VARIABLES: readonly string[] = [
  'ARGOCD_APP_NAME',
  'ARGOCD_APP_NAMESPACE',
  'ARGOCD_APP_PROJECT_NAME',
  'ARGOCD_APP_REVISION',
  'ARGOCD_APP_REVISION_SHORT',
  'ARGOCD_APP_REVISION_SHORT_8',
  'ARGOCD_APP_SOURCE_PATH',
  'ARGOCD_APP_SOURCE_REPO_URL',
  'ARGOCD_APP_SOURCE_TARGET_REVISION',
  'KUBE_VERSION',
  'KUBE_API_VERSIONS',
];



/** The kustomization file name in `dir` (`discover`), or undefined. */
export function discoverKustomization(dir: string, reader: SourceReader): string | undefined {
  for (const name of KUSTOMIZATION_FILE_NAMES) if (reader.kind(resolve(dir, name)) === 'file') return name;
  return undefined;
}

export interface CmpGenerateOptions {
  /** The Application's source directory (the command's working directory). */
  dir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Declared variable names. */
  variables: readonly string[];
  /** Pass `--enable-alpha-plugins` to kustomize (KRM/exec plugins such as PolicyGenerator). */
  alphaPlugins?: boolean;
}

export interface CmpPorts {
  reader: SourceReader;
  kustomize(): Promise<KustomizeTool>;
  helm(): Promise<HelmTool>;
}

/** Builds, substitutes and returns the manifest stream for Argo CD (YAML, ends in a newline). */
export async function generateCmpManifests(options: CmpGenerateOptions, ports: CmpPorts): Promise<string> {
  const { env, dir } = options;
  const declared = new Set(checkVariableNames(options.variables));
  const sourcePath = env.ARGOCD_APP_SOURCE_PATH || '.';
  const display = (abs: string) => posix.normalize(posix.join(sourcePath, relative(dir, abs).split(sep).join('/')));
  if (!discoverKustomization(dir, ports.reader)) {
    throw new InputError(`no kustomization.yaml, kustomization.yml or Kustomization in ${sourcePath}`, {
      code: 'not-a-kustomization',
      location: { file: sourcePath },
      hint: 'point the Application at a directory with a kustomization',
    });
  }
  const inputs = new InputWalker(ports.reader).kustomization(dir);
  const tool = await ports.kustomize();
  const helm = inputs.usesHelm ? await ports.helm() : undefined;
  const flags = [...KUSTOMIZE_BUILD_FLAGS];
  if (helm) flags.push('--helm-command', helm.binary);
  if (options.alphaPlugins) flags.push('--enable-alpha-plugins');
  let built: string;
  try {
    built = await tool.build(dir, flags);
  } catch (e) {
    if (e instanceof ToolError && e.code === 'build-failed') {
      throw new ToolError(`kustomize build of ${sourcePath} failed: ${e.message}`, { code: 'build-failed', cause: e });
    }
    throw e;
  }
  const builtins = new Set(CMP_BUILTIN_VARIABLES);
  const lookup = (name: string): string | undefined => {
    if (builtins.has(name)) return env[name];
    if (declared.has(name)) return env[ARGOCD_ENV_PREFIX + name];
    return undefined;
  };
  const app = env.ARGOCD_APP_NAME;
  const text = substituteStream(built, {
    lookup,
    path: sourcePath,
    subject: app ? `application ${app}` : undefined,
    findSource: (name, lineText) =>
      findVariableReference(
        name,
        inputs.files.map((f) => ({ path: display(f), text: () => safeRead(ports.reader, f) })),
        lineText,
      ),
    hint: (names) => names.map((n) => explainMissing(n, declared, builtins)).join('; '),
  });
  parseManifests(text, `${sourcePath} (built)`);
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

function explainMissing(name: string, declared: Set<string>, builtins: Set<string>): string {
  if (builtins.has(name)) return `${name} is set by Argo CD only during a sync`;
  if (declared.has(name)) {
    return `${name} is declared but ${ARGOCD_ENV_PREFIX}${name} is not set: add ${name} to the environment-variables ConfigMap or to the Application's spec.source.plugin.env`;
  }
  const list = declared.size > 0 ? [...declared].join(', ') : 'none';
  return `${name} is not declared (declared: ${list}): add \`--variable ${name}\` to the plugin's generate command, or write $\${${name}} for a literal`;
}

function safeRead(reader: SourceReader, f: string): string | undefined {
  try {
    return reader.readText(f);
  } catch {
    return undefined;
  }
}
