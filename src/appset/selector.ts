/**
 * Kubernetes label selectors with Argo CD's relaxation (`utils.LabelSelectorAsSelector`): keys
 * must be valid qualified names, values are not restricted (so `server` URLs can be selected).
 */
import type { LabelSelector } from './types.js';
import { ApplicationSetError } from './types.js';

export type CompiledSelector = (labels: Record<string, unknown>) => boolean;

const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `validation.IsQualifiedName`: returns the problem, or undefined when the key is valid. */
export function qualifiedNameProblem(key: string): string | undefined {
  const parts = key.split('/');
  let name = key;
  if (parts.length === 2) {
    const [prefix = '', n = ''] = parts;
    if (prefix.length === 0) return 'prefix part must be non-empty';
    if (prefix.length > 253 || !DNS1123_SUBDOMAIN_RE.test(prefix)) {
      return "prefix part must be a lowercase RFC 1123 subdomain (lower case alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character)";
    }
    name = n;
  } else if (parts.length > 2) {
    return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character with an optional DNS subdomain prefix and '/'";
  }
  if (name.length === 0) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!NAME_RE.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/**
 * Compiles a selector. `undefined`/`null` selects nothing filtered (the caller skips filtering);
 * `{}` selects everything.
 */
export function compileSelector(sel: LabelSelector | null | undefined): CompiledSelector {
  if (!sel) return () => true;
  const checks: CompiledSelector[] = [];
  const checkKey = (key: string): void => {
    const problem = qualifiedNameProblem(key);
    if (problem) throw new ApplicationSetError(`error parsing label selector: key: Invalid value: ${JSON.stringify(key)}: ${problem}`);
  };
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    checkKey(k);
    const want = String(v);
    checks.push((labels) => k in labels && labels[k] === want);
  }
  for (const req of sel.matchExpressions ?? []) {
    const { key, operator } = req;
    checkKey(key);
    const values = (req.values ?? []).map(String);
    switch (operator) {
      case 'In':
      case 'NotIn': {
        if (values.length === 0) {
          throw new ApplicationSetError(`error parsing label selector: values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty`);
        }
        const set = new Set(values);
        checks.push(
          operator === 'In'
            ? (labels) => key in labels && set.has(String(labels[key]))
            : (labels) => !(key in labels) || !set.has(String(labels[key])),
        );
        break;
      }
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          throw new ApplicationSetError(`error parsing label selector: values: Invalid value: ${JSON.stringify(values)}: values set must be empty for exists and does not exist`);
        }
        checks.push(operator === 'Exists' ? (labels) => key in labels : (labels) => !(key in labels));
        break;
      default:
        throw new ApplicationSetError(`error parsing label selector: ${JSON.stringify(operator)} is not a valid label selector operator`);
    }
  }
  return (labels) => checks.every((c) => c(labels));
}

/** Whether a selector has neither matchLabels nor matchExpressions. */
export function isEmptySelector(sel: LabelSelector | null | undefined): boolean {
  return !sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0);
}
