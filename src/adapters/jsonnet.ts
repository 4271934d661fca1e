/**
 * Locates a Jsonnet interpreter and evaluates a file with it (ADR 0303). Lookup order as for
 * kustomize and Helm (src/adapters/tools.ts): `--jsonnet`, then `FLEETPLAN_JSONNET`, then PATH
 * (`go-jsonnet` before `jsonnet`: go-jsonnet is what Argo CD's repo-server embeds), then the
 * package's `.tools/bin`. The child gets no JSONNET_PATH (toolEnv passes none): its search path is
 * only what the Application names. Each evaluation is bounded in time, output and memory.
 */
import { ToolError } from '../errors/index.js';
import type { JsonnetEvaluateRequest, JsonnetTool, ToolLocation } from '../ports/tools.js';
import type { Limiter } from './process.js';
import { parseVersion, runTool, sharedLimiter } from './process.js';
import type { ToolCandidate, ToolReport, ToolSearchSpec } from './tools.js';
import { firstUsable, searchTool } from './tools.js';

export const JSONNET_INSTALL_HINT =
  'install Jsonnet (Debian/Ubuntu: apt-get install jsonnet; or go-jsonnet, which Argo CD runs: https://github.com/google/go-jsonnet), ' +
  'or point --jsonnet / FLEETPLAN_JSONNET at one';

const JSONNET: ToolSearchSpec = { tool: 'jsonnet', flag: '--jsonnet', envVar: 'FLEETPLAN_JSONNET', commands: ['go-jsonnet', 'jsonnet'], installHint: JSONNET_INSTALL_HINT };

/** Address space of one evaluation (ulimit -v): a hostile file that builds a huge value fails, not the machine. */
const MEMORY_LIMIT_KIB = 4 * 1024 * 1024;

export interface LocateJsonnetOptions extends ToolLocation {
  cwd?: string;
  limiter?: Limiter;
}

export async function locateJsonnet(options: LocateJsonnetOptions): Promise<JsonnetTool> {
  const report = await findJsonnet(options);
  if (report.tool) return report.tool;
  throw report.error!;
}

/** The Jsonnet the lookup order gives; never throws a ToolError. */
export async function findJsonnet(options: LocateJsonnetOptions): Promise<ToolReport<JsonnetTool>> {
  const { env } = options;
  const search = searchTool(JSONNET, { explicit: options.explicit, env, cwd: options.cwd, bundledDir: options.bundledDir });
  return firstUsable(search, async (c) => {
    const v = await jsonnetVersion(c, env);
    return new ProcessJsonnet(c.binary, v.version, v.flavor, env, options.limiter ?? sharedLimiter(options.concurrency));
  });
}

async function jsonnetVersion({ binary, from }: ToolCandidate, env: ToolLocation['env']): Promise<{ version: string; flavor: 'go' | 'cpp' }> {
  const r = await runTool(binary, ['--version'], { env }, JSONNET_INSTALL_HINT);
  const text = `${r.stdout}\n${r.stderr}`;
  const version = r.code === 0 && /jsonnet/i.test(text) ? parseVersion(text) : undefined;
  if (!version) {
    throw new ToolError(`cannot tell the Jsonnet version of ${binary} (from ${from}): ${(r.stderr || r.stdout).trim() || `exit ${r.code}`}`, {
      code: 'tool-version',
      hint: JSONNET_INSTALL_HINT,
    });
  }
  // go-jsonnet: "Jsonnet commandline interpreter (Go implementation) v0.20.0"; C++: "Jsonnet commandline interpreter v0.18.0".
  return { version: version.text, flavor: /\bGo\b/.test(text) ? 'go' : 'cpp' };
}

/** The command-line arguments of one evaluation: both interpreters take the same flags. */
export function jsonnetArguments(req: Pick<JsonnetEvaluateRequest, 'file' | 'searchPath' | 'extVars' | 'tlas'>): string[] {
  const args: string[] = [];
  // -J: the right-most directory is searched first, as go-jsonnet's FileImporter searches JPaths.
  for (const dir of req.searchPath) args.push('-J', dir);
  // NAME=VALUE always: a bare NAME would take the value from the environment.
  for (const v of req.extVars) args.push(v.code ? '--ext-code' : '--ext-str', `${v.name}=${v.value}`);
  for (const v of req.tlas) args.push(v.code ? '--tla-code' : '--tla-str', `${v.name}=${v.value}`);
  args.push('--', req.file);
  return args;
}

class ProcessJsonnet implements JsonnetTool {
  constructor(
    readonly binary: string,
    readonly version: string,
    readonly flavor: 'go' | 'cpp',
    private readonly env: ToolLocation['env'],
    private readonly limiter: Limiter,
  ) {}

  evaluate(req: JsonnetEvaluateRequest): Promise<string> {
    return this.limiter.run(async () => {
      // Through sh for `ulimit -v` (where the shell cannot set it, the evaluation runs without it).
      const script = `ulimit -v ${MEMORY_LIMIT_KIB} 2>/dev/null; exec "$0" "$@"`;
      const r = await runTool('/bin/sh', ['-c', script, this.binary, ...jsonnetArguments(req)], { env: this.env, timeoutMs: req.timeoutMs, maxStdoutBytes: req.maxOutputBytes }, JSONNET_INSTALL_HINT);
      if (r.code === 0) return r.stdout;
      if (r.signal === 'SIGKILL') {
        const why = /output exceeded/.test(r.stderr) ? `its output exceeded ${req.maxOutputBytes} bytes` : `it ran longer than ${req.timeoutMs / 1000} s`;
        throw new ToolError(`evaluation stopped: ${why}`, { code: 'build-limit' });
      }
      const message = r.stderr.trim() || `jsonnet exited with ${r.code ?? r.signal}`;
      if (/std::bad_alloc|out of memory|cannot allocate memory/i.test(message)) {
        throw new ToolError(`evaluation stopped: it needed more than ${MEMORY_LIMIT_KIB / 1024 / 1024} GiB of memory`, { code: 'build-limit' });
      }
      throw new ToolError(message, { code: 'build-failed' });
    });
  }
}
