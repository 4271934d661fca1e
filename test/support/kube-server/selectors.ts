/**
 * Label selectors (`a=b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x,y)`) and the field
 * selectors every resource supports (`metadata.name`, `metadata.namespace`).
 */
import { badRequest } from './status.js';
import type { Obj } from './types.js';

export type Matcher = (obj: Obj) => boolean;

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur.trim() !== '') out.push(cur);
  return out.map((x) => x.trim()).filter((x) => x !== '');
}

export function parseLabelSelector(selector: string | undefined): Matcher {
  if (!selector) return () => true;
  const reqs: Matcher[] = splitTopLevel(selector).map((req) => {
    let m = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(req);
    if (m) {
      const [, key, op, list] = m as unknown as [string, string, string, string];
      const values = new Set(list.split(',').map((v) => v.trim()).filter((v) => v !== ''));
      return (o: Obj) => {
        const v: unknown = o.metadata?.labels?.[key];
        return op === 'in' ? typeof v === 'string' && values.has(v) : !(typeof v === 'string' && values.has(v));
      };
    }
    m = /^([^\s!=]+)\s*(==|=|!=)\s*([^\s,]*)$/.exec(req);
    if (m) {
      const [, key, op, value] = m as unknown as [string, string, string, string];
      return (o: Obj) => {
        const v: unknown = o.metadata?.labels?.[key];
        return op === '!=' ? v !== value : v === value;
      };
    }
    m = /^(!?)([^\s!=(),]+)$/.exec(req);
    if (m) {
      const [, neg, key] = m as unknown as [string, string, string];
      return (o: Obj) => (o.metadata?.labels?.[key] !== undefined) !== (neg === '!');
    }
    throw badRequest(`unable to parse requirement: invalid label selector "${selector}"`);
  });
  return (o) => reqs.every((r) => r(o));
}

export function parseFieldSelector(selector: string | undefined): Matcher {
  if (!selector) return () => true;
  const reqs: Matcher[] = splitTopLevel(selector).map((req) => {
    const m = /^([a-zA-Z.]+)\s*(==|=|!=)\s*(.*)$/.exec(req);
    if (!m) throw badRequest(`invalid field selector "${selector}"`);
    const [, field, op, value] = m as unknown as [string, string, string, string];
    let get: (o: Obj) => unknown;
    if (field === 'metadata.name') get = (o) => o.metadata?.name;
    else if (field === 'metadata.namespace') get = (o) => o.metadata?.namespace ?? '';
    else throw badRequest(`field label not supported: ${field}`);
    return (o: Obj) => (op === '!=' ? get(o) !== value : get(o) === value);
  });
  return (o) => reqs.every((r) => r(o));
}
