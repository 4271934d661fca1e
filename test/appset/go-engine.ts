// The Go template engine for the ApplicationSet tests: the one the command uses.
export { goTemplateEngine as goEngine } from '../../src/appset/go-engine.js';
