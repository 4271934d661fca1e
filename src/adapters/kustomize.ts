/**
 * Locates kustomize and runs builds. Order (src/adapters/tools.ts): the explicit `--kustomize`
 * value, then `FLEETPLAN_KUSTOMIZE` from the environment passed in, then `kustomize` and `kubectl`
 * on PATH (`kubectl kustomize` is a full kustomize), then the package's `.tools/bin`. The version
 * must be 5 or newer (helmCharts with `--helm-command`, `--load-restrictor`, replacements).
 */
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { ToolError } from '../errors/index.js';
import type { KustomizeTool, ToolLocation } from '../ports/tools.js';
import type { Limiter } from './process.js';
import { parseVersion, runTool, sharedLimiter } from './process.js';
import type { ToolReport, ToolSearchSpec } from './tools.js';
import { firstUsable, searchTool } from './tools.js';

export const MIN_KUSTOMIZE_MAJOR = 5;

export const KUSTOMIZE_INSTALL_HINT =
  'install kustomize 5 (https://kubectl.docs.kubernetes.io/installation/kustomize/) or kubectl 1.27 or newer, ' +
  'or point --kustomize / FLEETPLAN_KUSTOMIZE at one; in a fleetplan checkout `npm ci` puts kubectl in .tools/bin';

const KUSTOMIZE: ToolSearchSpec = {
  tool: 'kustomize',
  flag: '--kustomize',
  envVar: 'FLEETPLAN_KUSTOMIZE',
  commands: ['kustomize', 'kubectl'],
  installHint: KUSTOMIZE_INSTALL_HINT,
};

export interface LocateKustomizeOptions extends ToolLocation {
  cwd?: string;
  limiter?: Limiter;
  /**
   * Builds must not reach the network (render --leaves without --fetch, ADR 0283): git may use
   * only local repositories (GIT_ALLOW_PROTOCOL=file) and HTTP(S) goes to a proxy that refuses, so
   * a remote base fleetplan did not see in the kustomization fails instead of being fetched.
   */
  offline?: boolean;
}

/** What a kustomize build gets on top of the environment when it must stay offline. */
const OFFLINE_ENV: Readonly<Record<string, string | undefined>> = {
  GIT_ALLOW_PROTOCOL: 'file',
  HTTP_PROXY: 'http://127.0.0.1:9',
  HTTPS_PROXY: 'http://127.0.0.1:9',
  ALL_PROXY: 'http://127.0.0.1:9',
  http_proxy: 'http://127.0.0.1:9',
  https_proxy: 'http://127.0.0.1:9',
  all_proxy: 'http://127.0.0.1:9',
  NO_PROXY: undefined,
  no_proxy: undefined,
};

export async function locateKustomize(options: LocateKustomizeOptions): Promise<KustomizeTool> {
  const report = await findKustomize(options);
  if (report.tool) return report.tool;
  throw report.error!;
}

/** The kustomize the lookup order gives, with the candidates it refused; never throws a ToolError. */
export async function findKustomize(options: LocateKustomizeOptions): Promise<ToolReport<KustomizeTool>> {
  const { env } = options;
  const limiter = options.limiter ?? sharedLimiter(options.concurrency);
  const search = searchTool(KUSTOMIZE, { explicit: options.explicit, env, cwd: options.cwd, bundledDir: options.bundledDir });
  return firstUsable(search, async ({ binary, from }) => {
    const flavor = basename(binary).startsWith('kubectl') ? 'kubectl' : 'kustomize';
    const version = await kustomizeVersion(binary, flavor, env, from);
    if (version.major < MIN_KUSTOMIZE_MAJOR) {
      throw new ToolError(
        `kustomize ${version.text} (${binary}, from ${from}) is too old: fleetplan needs kustomize ${MIN_KUSTOMIZE_MAJOR} or newer`,
        { code: 'tool-version', hint: KUSTOMIZE_INSTALL_HINT },
      );
    }
    return new ProcessKustomize(binary, flavor, version.text, options.offline ? { ...env, ...OFFLINE_ENV } : env, limiter);
  });
}

async function kustomizeVersion(binary: string, flavor: 'kustomize' | 'kubectl', env: ToolLocation['env'], from: string) {
  const args = flavor === 'kubectl' ? ['version', '--client', '-o', 'json'] : ['version'];
  const r = await runTool(binary, args, { env }, KUSTOMIZE_INSTALL_HINT);
  let text = r.stdout;
  if (flavor === 'kubectl' && r.code === 0) {
    try {
      const parsed = JSON.parse(r.stdout) as { kustomizeVersion?: string };
      text = parsed.kustomizeVersion ?? '';
    } catch {
      text = '';
    }
  }
  const version = r.code === 0 ? parseVersion(text) : undefined;
  if (!version) {
    const what = flavor === 'kubectl' ? `\`${binary} version --client -o json\` gave no kustomizeVersion` : `\`${binary} version\` gave no version`;
    throw new ToolError(`cannot tell the kustomize version (from ${from}): ${what}${r.stderr ? `: ${r.stderr.trim()}` : ''}`, {
      code: 'tool-version',
      hint: KUSTOMIZE_INSTALL_HINT,
    });
  }
  return version;
}

class ProcessKustomize implements KustomizeTool {
  constructor(
    readonly binary: string,
    readonly flavor: 'kustomize' | 'kubectl',
    readonly version: string,
    private readonly env: ToolLocation['env'],
    private readonly limiter: Limiter,
  ) {}

  build(dir: string, flags: readonly string[]): Promise<string> {
    const args = this.flavor === 'kubectl' ? ['kustomize', dir, ...flags] : ['build', dir, ...flags];
    return this.limiter.run(async () => {
      const r = await runTool(this.binary, args, { env: this.env }, KUSTOMIZE_INSTALL_HINT);
      if (r.code !== 0) {
        const msg = r.stderr.trim() || `exited with ${r.code ?? r.signal}`;
        throw new ToolError(msg, { code: 'build-failed' });
      }
      return r.stdout;
    });
  }

  /**
   * A scratch tree in the temporary directory: every directory from `root` down to `dir` is a real
   * directory whose other entries are symbolic links to the repository's, and `dir` holds the given
   * kustomization.yaml instead of its own. Relative references (`../../components/x`) resolve
   * exactly as in the repository; kustomize follows the links to the real files. Removed afterwards.
   */
  async buildAs(root: string, dir: string, kustomization: string, flags: readonly string[]): Promise<string> {
    const rel = relative(root, dir);
    if (rel.startsWith('..') || isAbsolute(rel)) throw new ToolError(`${dir} is not inside ${root}`, { code: 'build-failed' });
    const scratch = await mkdtemp(join(tmpdir(), 'fleetplan-flux-'));
    try {
      const segments = rel === '' ? [] : rel.split(sep);
      let real = root;
      let copy = scratch;
      for (let i = 0; i <= segments.length; i++) {
        const next = segments[i];
        const last = i === segments.length;
        for (const e of await readdir(real)) {
          if (e === next) continue;
          if (last && KUSTOMIZATION_NAMES.includes(e)) continue;
          await symlink(join(real, e), join(copy, e));
        }
        if (next === undefined) break;
        real = join(real, next);
        copy = join(copy, next);
        await mkdir(copy);
      }
      await writeFile(join(copy, 'kustomization.yaml'), kustomization);
      try {
        return await this.build(copy, flags);
      } catch (e) {
        if (e instanceof ToolError) throw new ToolError(e.message.split(scratch).join(root), { code: e.code ?? 'build-failed', ...(e.hint ? { hint: e.hint } : {}) });
        throw e;
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
}

const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
