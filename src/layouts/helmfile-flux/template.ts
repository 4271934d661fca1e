/**
 * helmfile's Go templates, executed as helmfile executes them (helmfile pkg/tmpl, pkg/state
 * state_exec_tmpl.go), so that a release whose chart, version or values come from a template is
 * read instead of guessed (docs/adr/0320-helmfile-templates-executed.md):
 *
 * - text/template with `missingkey=error`, sprig's function set, and helmfile's own functions:
 *   `readFile`, `isFile`, `isDir`, `readDir`, `readDirEntries`, `tpl`, `toYaml`, `fromYaml`, `required`,
 *   `requiredEnv`, `env`, `get`/`getOrNil`, `setValueAtPath` (helmfile's `get` is sprig's `sprigGet`);
 * - `readFile` resolves relative names against the renderer's base directory: the state file's
 *   directory for release fields, the values file's own directory for a `.gotmpl` values file; a
 *   name that leaves the repository, or an absolute one, is refused (the template is not read);
 * - the environment is what the caller passes (never the machine's): `requiredEnv` of a variable
 *   not given fails, with the variable named; `env` of one reads "" (what helmfile's os.Getenv gives
 *   for an unset variable) and is told to `ctx.envNotGiven` (docs/adr/0413);
 * - `exec`, `envExec`, `fetchSecretValue`, `expandSecretRefs` are never run: the template is not read.
 */
import { parseTemplates } from '../../gotemplate/parse.js';
import { TemplateSet } from '../../gotemplate/exec.js';
import { funcMap, GoTemplateError, goValueFromJsonIntegralAsInt } from '../../gotemplate/index.js';
import type { GoValue } from '../../gotemplate/index.js';
import type { FuncDef } from '../../gotemplate/funcs.js';
import { def } from '../../gotemplate/funcs.js';
import { FuncError } from '../../gotemplate/errors.js';
import { isMap, hasOwn } from '../../gotemplate/values.js';
import { marshalYamlV2 } from '../../gotemplate/sprig/yaml-v2.js';
import { joinRepoPath } from '../../model/repo-path.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import { parseYamlAll } from '../../yaml/index.js';

export interface HelmfileTemplateContext {
  fs: RepoFileSystem;
  /** Repository-relative directory that `readFile` and friends resolve against. */
  baseDir: string;
  /** The environment variables the template sees (`requiredEnv`, `env`). */
  env: ReadonlyMap<string, string>;
  /** Told each variable an `env` read that `env` does not give (it read ""), with where: the caller notes it. */
  envNotGiven?: (variable: string, file: string, line: number) => void;
}

/** Why a template could not be read, at the template's own file and line. */
export class HelmfileTemplateError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line: number,
    /** `env`: an environment variable fleetplan does not know; `file`: a file that is not in the repository; `exec`: a command; `template`: Go's error. */
    readonly kind: 'env' | 'file' | 'exec' | 'template',
    readonly variable?: string,
  ) {
    super(message);
    this.name = 'HelmfileTemplateError';
  }
}

/** Thrown inside a function; carries its kind through the executor's FuncError wrapping. */
class Refused extends FuncError {
  constructor(
    message: string,
    readonly kind: 'env' | 'file' | 'exec',
    readonly variable?: string,
  ) {
    super(message);
  }
}

/** go-yaml v3 `Unmarshal` into `any`: the first document, integers as Go ints. */
function fromYaml(s: string): GoValue {
  let docs: unknown[];
  try {
    docs = parseYamlAll(s, { schema: 'core' });
  } catch (e) {
    throw new FuncError(`${(e as Error).message.split('\n')[0]}, offending yaml: ${s}`);
  }
  const first = docs[0];
  return first === undefined ? null : goValueFromJsonIntegralAsInt(first);
}

function toYaml(v: GoValue): string {
  return marshalYamlV2(v);
}

/** The function map of one renderer (its base directory and environment). */
function helmfileFuncs(ctx: HelmfileTemplateContext, render: (text: string, data: GoValue) => string, notGiven: Set<string>): Map<string, FuncDef> {
  const resolve = (name: string): string => {
    const p = joinRepoPath(ctx.baseDir, name);
    if (p === undefined) throw new Refused(`readFile ${JSON.stringify(name)} leaves the repository (or is absolute), which fleetplan does not read`, 'file');
    return p;
  };
  const lookupEnv = (name: string): string | undefined => ctx.env.get(name);
  const refuse = (what: string) => () => {
    throw new Refused(`${what} runs a command, which fleetplan never does`, 'exec');
  };
  const sprig = funcMap('sprig');
  const m = new Map<string, FuncDef>(sprig);
  const sprigGet = sprig.get('get');
  if (sprigGet) m.set('sprigGet', sprigGet);
  m.set('readFile', def(['string'], ((name: string) => {
    const p = resolve(name);
    if (!ctx.fs.exists(p) || ctx.fs.isDirectory(p)) throw new Refused(`open ${p}: no such file or directory`, 'file');
    return ctx.fs.readText(p);
  }) as never));
  m.set('isFile', def(['string'], ((name: string) => {
    const p = resolve(name);
    return ctx.fs.exists(p) && !ctx.fs.isDirectory(p);
  }) as never));
  m.set('isDir', def(['string'], ((name: string) => ctx.fs.isDirectory(resolve(name))) as never));
  m.set('readDir', def(['string'], ((name: string) => {
    const p = resolve(name);
    if (!ctx.fs.isDirectory(p)) throw new Refused(`ReadDir ${JSON.stringify(p)}: no such directory`, 'file');
    return ctx.fs.list(p).filter((e) => !ctx.fs.isDirectory(`${p}/${e}`)).map((e) => (name.endsWith('/') ? `${name}${e}` : `${name}/${e}`));
  }) as never));
  // helmfile's readDirEntries: os.ReadDir's entries (by name), read in templates as .Name and .IsDir.
  m.set('readDirEntries', def(['string'], ((name: string) => {
    const p = resolve(name);
    if (!ctx.fs.isDirectory(p)) throw new Refused(`ReadDirEntries ${JSON.stringify(p)}: no such directory`, 'file');
    return [...ctx.fs.list(p)].sort().map((e) => ({ Name: e, IsDir: ctx.fs.isDirectory(`${p}/${e}`) }));
  }) as never));
  m.set('tpl', def(['string', 'any'], ((text: string, data: GoValue) => render(text, data)) as never));
  m.set('toYaml', def(['any'], toYaml as never));
  m.set('fromYaml', def(['string'], fromYaml as never));
  m.set('required', def(['string', 'any'], ((warn: string, v: GoValue) => {
    if (v === undefined || v === null || v === '') throw new FuncError(warn);
    return v;
  }) as never));
  m.set('requiredEnv', def(['string'], ((name: string) => {
    const v = lookupEnv(name);
    if (v === undefined || v === '') throw new Refused(`required env var \`${name}\` is not set`, 'env', name);
    return v;
  }) as never));
  // helmfile's env is os.Getenv: "" for an unset variable. fleetplan knows none of the shell's.
  m.set('env', def(['string'], ((name: string) => {
    const v = lookupEnv(name);
    if (v !== undefined) return v;
    notGiven.add(name);
    return '';
  }) as never));
  const getOrNil = (path: string, v: GoValue): GoValue => {
    let at: GoValue = v;
    for (const k of path.split('.')) {
      if (!isMap(at) || !hasOwn(at, k)) return null;
      at = at[k];
    }
    return at;
  };
  m.set('getOrNil', def(['string', 'any'], getOrNil as never));
  m.set('get', def(['string'], ((path: string, ...rest: GoValue[]) => {
    // helmfile's get: `get PATH VALUES` or `get PATH DEFAULT VALUES`.
    const values = rest[rest.length - 1];
    const found = getOrNil(path, values);
    if (found !== null) return found;
    if (rest.length === 2) return rest[0];
    throw new FuncError(`no value exists for key "${path}"`);
  }) as never, 'any'));
  m.set('setValueAtPath', def(['string', 'any', 'map'], ((path: string, value: GoValue, values: GoValue) => {
    const parts = path.split('.');
    let at = values;
    for (const k of parts.slice(0, -1)) {
      if (!isMap(at) || !hasOwn(at, k)) throw new FuncError(`failed to set value at path "${path}": value for key "${k}" does not exist`);
      at = at[k];
    }
    if (!isMap(at)) throw new FuncError(`failed to set value at path "${path}": value for key "${parts[parts.length - 1]}" was not a map`);
    at[parts[parts.length - 1]!] = value;
    return values;
  }) as never));
  for (const f of ['exec', 'envExec', 'fetchSecretValue', 'expandSecretRefs']) m.set(f, def([], refuse(f) as never, 'any'));
  return m;
}

/** The first `:LINE` of a Go template error (`template: NAME:LINE:COL: …`). */
function lineOf(message: string, name: string): number {
  const at = message.indexOf(`${name}:`);
  const m = at < 0 ? undefined : /^:(\d+)/.exec(message.slice(at + name.length));
  return m ? Number(m[1]) : 1;
}

/**
 * Renders `text` as helmfile renders a template (`missingkey=error`). `file`/`firstLine`: where
 * the text is written, for errors (a release field inside a YAML file starts at its line there).
 * Throws HelmfileTemplateError.
 */
export function renderHelmfileTemplate(text: string, data: unknown, ctx: HelmfileTemplateContext, where: { file: string; firstLine: number }): string {
  let depth = 0;
  const notGiven = new Set<string>();
  const render = (t: string, d: GoValue): string => {
    if (++depth > 20) throw new FuncError('tpl nests more than 20 deep');
    try {
      const name = where.file;
      const funcs = helmfileFuncs(ctx, render, notGiven);
      // helmfile's `include` runs a named template of the set: the `_*.tpl` helpers of the base
      // directory, parsed first in file-name order, then the text itself (pkg/tmpl/context_tmpl.go).
      let nested = 0;
      funcs.set('include', def(['string', 'any'], ((n: string, data: GoValue) => {
        if (++nested > 1000) throw new FuncError(`rendering template has a nested reference name: ${n}`);
        try {
          return set.execute(n, data);
        } finally {
          nested--;
        }
      }) as never));
      const trees = new Map<string, ReturnType<typeof parseTemplates> extends Map<string, infer T> ? T : never>();
      for (const helper of helperTemplates(ctx)) for (const [k, v] of parseTemplates(helper.text, { name: helper.file, hasFunction: (f) => funcs.has(f) })) trees.set(k, v);
      for (const [k, v] of parseTemplates(t, { name, hasFunction: (f) => funcs.has(f) })) trees.set(k, v);
      const set = new TemplateSet(trees, { missingkey: 'error', funcs });
      return set.execute(name, d);
    } finally {
      depth--;
    }
  };
  try {
    return render(text, goValueFromJsonIntegralAsInt(data));
  } catch (e) {
    notGiven.clear();
    const msg = (e as Error).message;
    const refused = findRefused(e);
    const line = where.firstLine + lineOf(msg, where.file) - 1;
    if (refused) throw new HelmfileTemplateError(msg, where.file, line, refused.kind, refused.variable);
    if (e instanceof GoTemplateError || e instanceof FuncError) throw new HelmfileTemplateError(msg, where.file, line, 'template');
    throw e;
  } finally {
    for (const v of notGiven) ctx.envNotGiven?.(v, where.file, where.firstLine + envLine(text, v));
  }
}

/** The line (from 0) of the text's first `env "NAME"`; 0 when the name is not written there (a variable, a `tpl`). */
function envLine(text: string, variable: string): number {
  const at = text.search(new RegExp(`\\benv\\s+["\`]${variable.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["\`]`));
  return at < 0 ? 0 : text.slice(0, at).split('\n').length - 1;
}

/** The `_*.tpl` files of the template's base directory, by name (helmfile globs `<basePath>/_*.tpl`). */
function helperTemplates(ctx: HelmfileTemplateContext): { file: string; text: string }[] {
  if (!ctx.fs.isDirectory(ctx.baseDir)) return [];
  return [...ctx.fs.list(ctx.baseDir)]
    .filter((e) => e.startsWith('_') && e.endsWith('.tpl'))
    .sort()
    .flatMap((e) => {
      const file = ctx.baseDir === '.' ? e : `${ctx.baseDir}/${e}`;
      if (ctx.fs.isDirectory(file)) return [];
      return [{ file, text: ctx.fs.readText(file) }];
    });
}

function findRefused(e: unknown): Refused | undefined {
  for (let x: unknown = e, i = 0; x instanceof Error && i < 10; x = (x as Error & { cause?: unknown }).cause, i++) if (x instanceof Refused) return x;
  // The executor wraps a function's error in a new message: recognise ours by their text.
  const msg = e instanceof Error ? e.message : '';
  const env = /required env var `([^`]+)` is not set/.exec(msg);
  if (env) return new Refused(msg, 'env', env[1]);
  if (/runs a command, which fleetplan never does/.test(msg)) return new Refused(msg, 'exec');
  if (/no such file or directory|leaves the repository \(or is absolute\)|no such directory/.test(msg)) return new Refused(msg, 'file');
  return undefined;
}

/** Template data of a release (helmfile's releaseTemplateData). */
export function releaseTemplateData(r: { name: string; namespace: string; chart?: string; version?: string; labels?: Record<string, string> }, environment = 'default', values: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Environment: { Name: environment, KubeContext: '', Values: values },
    KubeContext: '',
    Namespace: '',
    Chart: '',
    Values: values,
    StateValues: values,
    Release: { Name: r.name, Namespace: r.namespace, Chart: r.chart ?? '', Labels: r.labels ?? {}, KubeContext: '', ChartVersion: r.version ?? '' },
  };
}
