// The Go template engine for the tests, loaded if it is present in this build.
import type { GoTemplateCompiler } from '../../src/appset/render.js';
import type { ParamSet } from '../../src/appset/types.js';

export interface GoEngine {
  compileGoTemplate: GoTemplateCompiler | undefined;
  toGoData: ((p: ParamSet) => unknown) | undefined;
}

const modulePath = '../../src/gotemplate/index.js';
let engine: GoEngine = { compileGoTemplate: undefined, toGoData: undefined };
try {
  const m = (await import(modulePath)) as Record<string, unknown>;
  engine = { compileGoTemplate: m['compileGoTemplate'] as GoTemplateCompiler, toGoData: undefined };
} catch {
  engine = {
    compileGoTemplate: () => {
      throw new Error('Go template engine not built');
    },
    toGoData: undefined,
  };
}
export const goEngine: GoEngine = engine;
