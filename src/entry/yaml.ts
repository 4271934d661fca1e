/** Parsing YAML (loads js-yaml and `yaml`; src/yaml owns both, ADR 0005). */
export { parseYaml } from '../yaml/index.js';
