/**
 * Label selectors in kubectl's syntax, for choosing clusters (`fleetplan plan -l role=spoke`):
 * `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, `k>1`, `k<1`; a comma is AND.
 * The grammar, the key and value rules and the meaning of `!=`/`notin` on a missing label are
 * those of k8s.io/apimachinery/pkg/labels, so a selector that works with kubectl works here.
 *
 * A cluster's labels (clusterSelectorLabels) are its own labels plus built-in keys; the group key
 * has several values, and a requirement on it holds when any group satisfies it (negated operators:
 * when none does). See docs/adr/0171-cluster-label-selectors.md.
 */
import { UsageError } from '../errors/index.js';
import type { ClusterDef } from '../model/fleet.js';

export type Operator = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | '>' | '<';

export interface Requirement {
  key: string;
  operator: Operator;
  /** The values of `=`/`!=` (one), `in`/`notin` (one or more), `>`/`<` (one integer); empty for exists and `!`. */
  values: string[];
}

export interface Selector {
  /** The text as given. */
  text: string;
  /** Every requirement must hold (AND). No requirement: everything matches. */
  requirements: Requirement[];
}

/** Labels to match: a key with one value, or with several (the groups of a cluster). */
export type LabelSet = Readonly<Record<string, string | readonly string[]>>;

export const BUILTIN_PREFIX = 'fleetplan.io/';

/** The syntax, for hints and help. */
export const SELECTOR_SYNTAX = 'k=v, k==v, k!=v, k in (a,b), k notin (a,b), k, !k; a comma means AND';

type TokenKind = 'id' | '!' | '=' | '==' | '!=' | '(' | ')' | ',' | '>' | '<' | 'in' | 'notin' | 'end';

interface Token {
  kind: TokenKind;
  text: string;
  /** 1-based column of the token's first character. */
  column: number;
}

const SPECIAL = new Set(['!', '=', '(', ')', ',', '>', '<']);

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const column = i + 1;
    if (ch === '!' && text[i + 1] === '=') {
      tokens.push({ kind: '!=', text: '!=', column });
      i += 2;
    } else if (ch === '=' && text[i + 1] === '=') {
      tokens.push({ kind: '==', text: '==', column });
      i += 2;
    } else if (SPECIAL.has(ch)) {
      tokens.push({ kind: ch as TokenKind, text: ch, column });
      i++;
    } else {
      let j = i;
      while (j < text.length && !SPECIAL.has(text[j]!) && !/\s/.test(text[j]!)) j++;
      const word = text.slice(i, j);
      tokens.push({ kind: word === 'in' ? 'in' : word === 'notin' ? 'notin' : 'id', text: word, column });
      i = j;
    }
  }
  tokens.push({ kind: 'end', text: '', column: text.length + 1 });
  return tokens;
}

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Why `key` is not a qualified label key (`[prefix/]name`), or undefined when it is one. */
export function keyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    if (prefix === '') return 'the prefix before "/" must not be empty';
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) return `the prefix "${prefix}" must be a DNS subdomain (lower case letters, digits, "-" and ".")`;
  }
  if (name === '') return 'the name must not be empty';
  if (name.length > 63) return 'the name must be at most 63 characters';
  if (!NAME.test(name)) return 'the name must consist of letters, digits, "-", "_" or "." and start and end with a letter or digit';
  return undefined;
}

/** Why `value` is not a label value, or undefined when it is one (the empty value is one). */
export function valueProblem(value: string): string | undefined {
  if (value.length > 63) return 'a value must be at most 63 characters';
  if (!VALUE.test(value)) return 'a value must be empty or consist of letters, digits, "-", "_" or "." and start and end with a letter or digit';
  return undefined;
}

const describe = (t: Token): string => (t.kind === 'end' ? 'the end of the selector' : `"${t.text}"`);

/**
 * Parses a selector. Throws a UsageError naming the column and the problem, e.g.
 * `invalid selector "role in (hub": column 13: expected "," or ")", found the end of the selector`.
 */
export function parseSelector(text: string): Selector {
  const tokens = lex(text);
  let pos = 0;
  const peek = (): Token => tokens[pos]!;
  const next = (): Token => tokens[pos++]!;
  const fail = (t: Token, problem: string): never => {
    throw new UsageError(`invalid selector "${text}": column ${t.column}: ${problem}`, {
      code: 'invalid-selector',
      hint: `a selector is ${SELECTOR_SYNTAX}`,
    });
  };
  const key = (): string => {
    const t = next();
    if (t.kind !== 'id' && t.kind !== 'in' && t.kind !== 'notin') fail(t, `expected a label key, found ${describe(t)}`);
    const problem = keyProblem(t.text);
    if (problem) fail(t, `invalid label key "${t.text}": ${problem}`);
    return t.text;
  };
  const checkValue = (t: Token, value: string): string => {
    const problem = valueProblem(value);
    if (problem) fail(t, `invalid value "${value}": ${problem}`);
    return value;
  };
  // A value after = or !=: a word, or nothing when the requirement ends here (`k=` matches an empty value).
  const exactValue = (): string => {
    const t = peek();
    if (t.kind === ',' || t.kind === 'end') return '';
    if (t.kind !== 'id' && t.kind !== 'in' && t.kind !== 'notin') fail(t, `expected a value, found ${describe(t)}`);
    next();
    return checkValue(t, t.text);
  };
  // `(a,b)`, as kubectl reads it: an empty element (`(a,)`, `(,a)`, `(a,,b)`) is the empty value.
  const valueSet = (operator: string): string[] => {
    const open = next();
    if (open.kind !== '(') fail(open, `expected "(" after "${operator}", found ${describe(open)}`);
    const values = new Set<string>();
    if (peek().kind === ')') fail(peek(), `"${operator}" needs at least one value`);
    let expectValue = true;
    for (;;) {
      const t = next();
      if (expectValue && (t.kind === 'id' || t.kind === 'in' || t.kind === 'notin')) {
        values.add(checkValue(t, t.text));
        expectValue = false;
      } else if (t.kind === ',') {
        if (expectValue) values.add('');
        expectValue = true;
      } else if (t.kind === ')') {
        if (expectValue) values.add('');
        return [...values].sort();
      } else {
        fail(t, expectValue ? `expected a value, "," or ")", found ${describe(t)}` : `expected "," or ")", found ${describe(t)}`);
      }
    }
  };

  const requirements: Requirement[] = [];
  if (peek().kind === 'end') return { text, requirements };
  for (;;) {
    let requirement: Requirement;
    if (peek().kind === '!') {
      next();
      requirement = { key: key(), operator: '!', values: [] };
    } else {
      const k = key();
      const op = peek();
      switch (op.kind) {
        case ',':
        case 'end':
          requirement = { key: k, operator: 'exists', values: [] };
          break;
        case '=':
        case '==':
          next();
          requirement = { key: k, operator: '=', values: [exactValue()] };
          break;
        case '!=':
          next();
          requirement = { key: k, operator: '!=', values: [exactValue()] };
          break;
        case 'in':
        case 'notin':
          next();
          requirement = { key: k, operator: op.kind, values: valueSet(op.kind) };
          break;
        case '>':
        case '<': {
          next();
          const t = next();
          if (t.kind !== 'id' || !/^-?\d+$/.test(t.text)) fail(t, `"${op.kind}" needs an integer, found ${describe(t)}`);
          requirement = { key: k, operator: op.kind, values: [t.text] };
          break;
        }
        default:
          fail(op, `expected one of =, ==, !=, in, notin, >, <, "," or the end after the key "${k}", found ${describe(op)}`);
      }
    }
    requirements.push(requirement!);
    const sep = next();
    if (sep.kind === 'end') return { text, requirements };
    if (sep.kind !== ',') fail(sep, `expected "," or the end of the selector, found ${describe(sep)}`);
  }
}

function valuesOf(labels: LabelSet, key: string): readonly string[] | undefined {
  if (!Object.hasOwn(labels, key)) return undefined;
  const v = labels[key]!;
  return typeof v === 'string' ? [v] : v;
}

/** Whether one requirement holds for the labels. A key with no values counts as absent. */
export function requirementMatches(r: Requirement, labels: LabelSet): boolean {
  const present = valuesOf(labels, r.key);
  const values = present && present.length > 0 ? present : undefined;
  switch (r.operator) {
    case 'exists':
      return values !== undefined;
    case '!':
      return values === undefined;
    case '=':
    case 'in':
      return values !== undefined && values.some((v) => r.values.includes(v));
    case '!=':
    case 'notin':
      // kubectl: a missing label satisfies != and notin.
      return values === undefined || !values.some((v) => r.values.includes(v));
    case '>':
    case '<': {
      const bound = Number(r.values[0]);
      return values !== undefined && values.some((v) => /^-?\d+$/.test(v) && (r.operator === '>' ? Number(v) > bound : Number(v) < bound));
    }
  }
}

export function selectorMatches(selector: Selector, labels: LabelSet): boolean {
  return selector.requirements.every((r) => requirementMatches(r, labels));
}

/**
 * The labels a selector sees on a cluster: `metadata.labels`, then `spec.labels` over them; the
 * built-in keys `fleetplan.io/name`, `role`, `sector`, `region`, `hub` and `group` (one value per
 * group), which no label can override; and the short keys `role`, `sector` and `region` when the
 * cluster has no label of that name.
 */
export function clusterSelectorLabels(def: Pick<ClusterDef, 'name' | 'metadata' | 'spec'>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { ...(def.metadata.labels ?? {}), ...(def.spec.labels ?? {}) };
  const facts: Record<string, string | undefined> = {
    role: def.spec.role,
    sector: def.spec.sector,
    region: def.spec.region,
  };
  out[`${BUILTIN_PREFIX}name`] = def.name;
  for (const [k, v] of Object.entries(facts)) if (v !== undefined) out[`${BUILTIN_PREFIX}${k}`] = v;
  if (def.spec.hub !== undefined) out[`${BUILTIN_PREFIX}hub`] = def.spec.hub;
  const groups = [...new Set(def.spec.groups ?? [])].sort();
  if (groups.length > 0) out[`${BUILTIN_PREFIX}group`] = groups;
  for (const [k, v] of Object.entries(facts)) if (v !== undefined && !Object.hasOwn(out, k)) out[k] = v;
  return out;
}

/** The names of the clusters (in the order given) whose labels match. */
export function selectClustersByLabels<C extends Pick<ClusterDef, 'name' | 'metadata' | 'spec'>>(clusters: readonly C[], selector: Selector): string[] {
  return clusters.filter((c) => selectorMatches(selector, clusterSelectorLabels(c))).map((c) => c.name);
}
