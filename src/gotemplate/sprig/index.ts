/**
 * The sprig v3 function map (TxtFuncMap) without `env`, `expandenv` and `getHostByName`, and
 * Argo CD's additions. Functions that reach the environment are absent on purpose: calling one is
 * the parse error `function "env" not defined`, as in Argo CD.
 */
import { FuncError } from '../errors.js';
import type { FuncDef } from '../funcs.js';
import { def } from '../funcs.js';
import type { GoMap, GoValue } from '../values.js';
import { hasOwn, newMap } from '../values.js';
import { argocdFuncList } from './argocd.js';
import { collectionFuncs } from './collections.js';
import { cryptoFuncs } from './crypto.js';
import { dateFuncs } from './date.js';
import { regexFuncs } from './regex.js';
import { semverFuncs } from './semver.js';
import { stringFuncs } from './strings.js';
import { strval } from './util.js';

/** Functions of sprig's map that fleetplan leaves out (they read the environment or the network). */
export const REMOVED_SPRIG_FUNCTIONS = ['env', 'expandenv', 'getHostByName'] as const;

function urlParse(v: string): GoValue {
  const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(.*)$/s.exec(v)!;
  const scheme = m[1] ?? '';
  let rest = m[2]!;
  let fragment = '';
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    fragment = decode(rest.slice(hashAt + 1));
    rest = rest.slice(0, hashAt);
  }
  let query = '';
  const qAt = rest.indexOf('?');
  if (qAt >= 0) {
    query = rest.slice(qAt + 1);
    rest = rest.slice(0, qAt);
  }
  let host = '';
  let userinfo = '';
  let opaque = '';
  let path = '';
  if (rest.startsWith('//')) {
    const auth = rest.slice(2).split('/')[0]!;
    rest = rest.slice(2 + auth.length);
    const at = auth.lastIndexOf('@');
    if (at >= 0) {
      userinfo = auth.slice(0, at);
      host = auth.slice(at + 1);
    } else host = auth;
    path = decode(rest);
  } else if (scheme !== '' && !rest.startsWith('/')) {
    opaque = rest;
  } else path = decode(rest);
  const hostname = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  const d = newMap();
  Object.assign(d, { scheme, host, hostname, path, query, opaque, fragment, userinfo });
  return d;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new FuncError(`unable to parse url: invalid URL escape`);
  }
}

function escapePath(p: string): string {
  return encodeURI(p).replace(/[?#]/g, (c) => encodeURIComponent(c));
}

function urlJoin(d: GoMap | null): string {
  const get = (k: string): string => (d && hasOwn(d, k) ? strval(d[k] ?? null) : '');
  const scheme = get('scheme');
  const host = get('host');
  const path = get('path');
  const query = get('query');
  const opaque = get('opaque');
  const fragment = get('fragment');
  const userinfo = get('userinfo');
  let out = '';
  if (scheme !== '') out += scheme + ':';
  if (opaque !== '') out += opaque;
  else {
    if (scheme !== '' || host !== '' || userinfo !== '') {
      if (host !== '' || path !== '' || userinfo !== '') out += '//';
      if (userinfo !== '') out += userinfo + '@';
      out += host;
    }
    if (path !== '' && path[0] !== '/' && host !== '') out += '/';
    out += escapePath(path);
  }
  if (query !== '') out += '?' + query;
  if (fragment !== '') out += '#' + encodeURIComponent(fragment).replace(/%2F/g, '/');
  return out;
}

export function sprigFuncs(): [string, FuncDef][] {
  return [
    ...stringFuncs(),
    ...collectionFuncs(),
    ...regexFuncs(),
    ...semverFuncs(),
    ...dateFuncs(),
    ...cryptoFuncs(),
    ['urlParse', def(['string'], urlParse as never)],
    ['urlJoin', def(['map'], urlJoin as never)],
  ];
}

export function argocdFuncs(): [string, FuncDef][] {
  return argocdFuncList();
}
