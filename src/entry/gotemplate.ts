/** Go templates as Argo CD renders them (sprig and Argo CD's functions): `fleetplan gotemplate`. */
export { renderGoTemplate } from '../api/gotemplate.js';
export { GoTemplateError } from '../gotemplate/index.js';
export type { FuncSet } from '../gotemplate/index.js';
