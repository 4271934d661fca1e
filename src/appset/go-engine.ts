/**
 * The Go template engine the ApplicationSet renderer uses in goTemplate mode: Go text/template
 * with Argo CD's function map, and JSON params read as Argo CD reads them (numbers are float64).
 */
import { compileGoTemplate, goValueFromJsonArgoCD } from '../gotemplate/index.js';
import type { GenerateOptions } from './applications.js';
import { markParamsAsGoData } from './go-value.js';

export const goTemplateEngine: Required<Pick<GenerateOptions, 'compileGoTemplate' | 'toGoData'>> = {
  compileGoTemplate: (text, options) => compileGoTemplate(text, options),
  toGoData: markParamsAsGoData((params) => goValueFromJsonArgoCD(params)),
};
