/** `renderGoTemplate`: a Go template rendered with JSON-like data, as Argo CD's ApplicationSet controller does. */
import { compileGoTemplate, goValueFromJsonArgoCD } from '../gotemplate/index.js';
import type { GoTemplateOptions } from '../gotemplate/index.js';

/**
 * Renders `text` with `data` (plain JSON-like data; every number becomes a float64, as Argo CD's
 * JSON decoding gives). Throws GoTemplateError with Go's message on a parse or execution error.
 */
export function renderGoTemplate(text: string, data: unknown, options: GoTemplateOptions = {}): string {
  return compileGoTemplate(text, options).execute(goValueFromJsonArgoCD(data));
}
