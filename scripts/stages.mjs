// The import direction of src/: data flows load → layering → generate → order → render →
// validate → apply → promote (docs/adr/0180-stage-imports.md). Each folder may import itself and
// the folders listed before it in STAGES; `adapters` (the node implementations of the ports) may
// import only the kernel; `api` (the composition root) anything but the CLI; `entry` (the public
// entry points, which src/index.ts re-exports) the stages and `api`; `cli` only the entry points and
// the adapters — not src/index.ts, which evaluates every stage (docs/adr/0288-lazy-command-line.md).
// eslint.config.js turns this into one `no-restricted-imports` rule per folder; test/architecture
// checks it, and that there is no cycle.

/** Folders in data-flow order. */
export const STAGES = [
  'errors', 'model', 'yaml', 'ports', 'gotemplate', 'appset',
  'load', 'layering', 'generate', 'order', 'render', 'validate', 'diff', 'layouts', 'apply', 'promote',
];

/** The kernel: what every folder may import. */
export const KERNEL = ['errors', 'model', 'yaml', 'ports'];

/** Folders outside the linear flow, with what each may import. */
export const SIDE = {
  adapters: KERNEL,
  api: [...STAGES, 'adapters'],
  entry: [...STAGES, 'api'],
  cli: ['entry', 'adapters'],
};

/** The folders (or top-level modules, without `.ts`) a module in `folder` may import. */
export function allowedImports(folder) {
  if (folder in SIDE) return [folder, ...SIDE[folder]];
  const i = STAGES.indexOf(folder);
  if (i < 0) return undefined;
  return STAGES.slice(0, i + 1);
}

/** Every folder and top-level module of src/ that the rules know. */
export const ALL = [...STAGES, ...Object.keys(SIDE), 'index'];

/** ESLint flat-config blocks: for each folder, `no-restricted-imports` of every folder it may not import. */
export function stageImportConfigs() {
  const configs = [];
  for (const folder of [...STAGES, ...Object.keys(SIDE)]) {
    const allowed = new Set(allowedImports(folder));
    const forbidden = ALL.filter((f) => !allowed.has(f) && f !== 'index');
    const message = `src/${folder} may import only ${[...allowed].join(', ')} (data flows one way: scripts/stages.mjs, docs/adr/0180-stage-imports.md).`;
    // src/index.ts is `../index.js` from src/<folder>/x.ts, `../../index.js` one level deeper...
    for (let depth = 1; depth <= 4; depth++) {
      const group = forbidden.flatMap((f) => [`**/${f}/**`, `${'../'.repeat(depth)}${f}.js`]);
      if (!allowed.has('index')) group.push(`${'../'.repeat(depth)}index.js`);
      configs.push({
        files: [`src/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
        rules: {
          'no-restricted-imports': ['error', {
            patterns: [{ group, message }],
            paths: folder === 'yaml' ? [] : ['js-yaml', 'yaml'].map((name) => ({ name, message: 'YAML is parsed and emitted by src/yaml only (one parser, one emitter).' })),
          }],
        },
      });
    }
  }
  return configs;
}
