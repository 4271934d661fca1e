/**
 * Non-apply patches: JSON merge patch (RFC 7386) and JSON patch (RFC 6902); strategic merge
 * patch is strategic.ts.
 */
import { badRequest, StatusError } from './status.js';
import { clone, deepEqual, isPlainObject, type Obj } from './types.js';

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return clone(patch);
  const out: Obj = isPlainObject(target) ? clone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw invalidPatch(`invalid JSON pointer "${pointer}"`);
  return pointer.slice(1).split('/').map(unescape);
}

function invalidPatch(message: string): StatusError {
  return new StatusError(422, 'Invalid', `the server rejected our request due to an error in our request: ${message}`);
}

function parentOf(doc: unknown, tokens: string[], op: string): { parent: any; key: string } {
  let cur: any = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isPlainObject(cur)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined) throw invalidPatch(`${op} operation does not apply: doc is missing path: /${tokens.join('/')}`);
  }
  return { parent: cur, key: tokens[tokens.length - 1] ?? '' };
}

function getAt(doc: unknown, tokens: string[]): unknown {
  let cur: any = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isPlainObject(cur)) cur = cur[t];
    else return undefined;
  }
  return cur;
}

function addAt(doc: unknown, tokens: string[], value: unknown, op: string): unknown {
  if (tokens.length === 0) return clone(value);
  const { parent, key } = parentOf(doc, tokens, op);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > parent.length) throw invalidPatch(`${op} operation does not apply: index out of range: /${tokens.join('/')}`);
    parent.splice(i, 0, clone(value));
  } else if (isPlainObject(parent)) {
    parent[key] = clone(value);
  } else {
    throw invalidPatch(`${op} operation does not apply: doc is missing path: /${tokens.join('/')}`);
  }
  return doc;
}

function removeAt(doc: unknown, tokens: string[], op: string): unknown {
  const { parent, key } = parentOf(doc, tokens, op);
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) throw invalidPatch(`${op} operation does not apply: doc is missing path: /${tokens.join('/')}`);
    parent.splice(i, 1);
  } else if (isPlainObject(parent) && key in parent) {
    delete parent[key];
  } else {
    throw invalidPatch(`${op} operation does not apply: doc is missing path: /${tokens.join('/')}`);
  }
  return doc;
}

export function jsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw badRequest('a JSON patch must be an array of operations');
  let doc: unknown = clone(target);
  for (const raw of ops) {
    if (!isPlainObject(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') {
      throw badRequest('each JSON patch operation needs "op" and "path"');
    }
    const path = parsePointer(raw.path);
    switch (raw.op) {
      case 'add':
        doc = addAt(doc, path, raw.value, 'add');
        break;
      case 'remove':
        doc = removeAt(doc, path, 'remove');
        break;
      case 'replace':
        if (getAt(doc, path) === undefined) throw invalidPatch(`replace operation does not apply: doc is missing key: ${raw.path}`);
        doc = removeAt(doc, path, 'replace');
        doc = addAt(doc, path, raw.value, 'replace');
        break;
      case 'move':
      case 'copy': {
        if (typeof raw.from !== 'string') throw badRequest(`${raw.op} needs "from"`);
        const from = parsePointer(raw.from);
        const value = getAt(doc, from);
        if (value === undefined) throw invalidPatch(`${raw.op} operation does not apply: doc is missing from path: ${raw.from}`);
        if (raw.op === 'move') doc = removeAt(doc, from, 'move');
        doc = addAt(doc, path, value, raw.op);
        break;
      }
      case 'test':
        if (!deepEqual(getAt(doc, path), raw.value)) throw invalidPatch(`testing value ${raw.path} failed`);
        break;
      default:
        throw badRequest(`unknown JSON patch operation "${String(raw.op)}"`);
    }
  }
  return doc;
}
