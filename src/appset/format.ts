/**
 * Printing generated Applications deterministically: sorted by name (generation order breaks
 * ties), keys sorted, no line wrapping, LF, one trailing newline. `explain` adds, per
 * Application, the generator and the parameter set it came from (YAML comments, or JSON
 * `{generator, params, application}` records).
 */
import type { GeneratedApplication } from './applications.js';
import { dumpYaml } from '../yaml/index.js';

export type OutputFormat = 'yaml' | 'json';

export interface FormatOptions {
  output: OutputFormat;
  explain: boolean;
}

export const defaultFormatOptions: FormatOptions = { output: 'yaml', explain: false };

export function sortApplications(apps: readonly GeneratedApplication[]): GeneratedApplication[] {
  return apps
    .map((a, i) => ({ a, i }))
    .sort((x, y) => {
      const nx = x.a.application.metadata.name ?? '';
      const ny = y.a.application.metadata.name ?? '';
      return nx < ny ? -1 : nx > ny ? 1 : x.i - y.i;
    })
    .map((x) => x.a);
}

function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortKeysDeep(o[k])]),
    );
  }
  return v;
}

const yamlOptions = { sortKeys: true, lineWidth: -1, noRefs: true } as const;

export function formatApplications(apps: readonly GeneratedApplication[], options: FormatOptions = defaultFormatOptions): string {
  const sorted = sortApplications(apps);
  if (options.output === 'json') {
    const items = sorted.map((g) => (options.explain ? { application: g.application, generator: g.generator, params: g.params } : g.application));
    return `${JSON.stringify(sortKeysDeep(items), null, 2)}\n`;
  }
  if (sorted.length === 0) return '';
  return sorted
    .map((g) => {
      let doc = '';
      if (options.explain) {
        const params = dumpYaml(g.params, yamlOptions).trimEnd();
        doc += `# generator: ${g.generator}\n# params:\n${params
          .split('\n')
          .map((l) => `#   ${l}`)
          .join('\n')}\n`;
      }
      return `${doc}${dumpYaml(g.application, yamlOptions)}`;
    })
    .map((d) => `---\n${d}`)
    .join('');
}
