/**
 * The Go template engine the ApplicationSet renderer uses in goTemplate mode.
 * Empty until the engine (src/gotemplate) is part of the build.
 */
import type { GenerateOptions } from './applications.js';

export const goTemplateEngine: Pick<GenerateOptions, 'compileGoTemplate' | 'toGoData'> = {};
