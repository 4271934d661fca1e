/**
 * URL → what the request is about. Mirrors the API server's request-info parsing for the
 * paths clients use: discovery, and `/api/v1/...` or `/apis/<group>/<version>/...` resources.
 */
export type Verb =
  | 'discovery' | 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'apply' | 'delete' | 'deletecollection' | 'other';

export interface RequestInfo {
  method: string;
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  contentType: string;
  verb: Verb;
  group: string;
  version: string;
  resource: string;
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
}

/** A request as the server logged it. */
export interface RequestLogEntry extends RequestInfo {
  seq: number;
  /** HTTP status of the answer; undefined while the request is open (frozen or hung requests). */
  status: number | undefined;
  /** Set when an injected fault answered (`409`, `429`, `500`, `reset`, `hang`). */
  fault?: string;
  /** Events written, for watches. */
  events?: number;
}

/** Splits a resource path; `isNamespaced(group, version, plural)` disambiguates `/namespaces/<x>/...`. */
export function parseRequest(
  method: string,
  url: URL,
  contentType: string,
  isNamespaced: (group: string, version: string, plural: string) => boolean,
): RequestInfo {
  const info: RequestInfo = {
    method, path: url.pathname, query: url.search.replace(/^\?/, ''), contentType, verb: 'other',
    group: '', version: '', resource: '', namespace: undefined, name: undefined, subresource: undefined,
  };
  const segs = url.pathname.split('/').filter((s) => s !== '').map((s) => decodeURIComponent(s));
  let rest: string[];
  if (segs[0] === 'api') {
    if (segs.length <= 2) return { ...info, verb: 'discovery', version: segs[1] ?? '' };
    info.version = segs[1]!;
    rest = segs.slice(2);
  } else if (segs[0] === 'apis') {
    if (segs.length <= 3) return { ...info, verb: 'discovery', group: segs[1] ?? '', version: segs[2] ?? '' };
    info.group = segs[1]!;
    info.version = segs[2]!;
    rest = segs.slice(3);
  } else {
    return { ...info, verb: segs[0] === 'version' || segs[0] === 'openapi' ? 'discovery' : 'other' };
  }
  if (rest[0] === 'namespaces' && rest.length >= 3 && isNamespaced(info.group, info.version, rest[2]!)) {
    info.namespace = rest[1];
    rest = rest.slice(2);
  }
  info.resource = rest[0] ?? '';
  info.name = rest[1];
  info.subresource = rest[2];
  const watch = new URLSearchParams(info.query).get('watch');
  const isWatch = watch === 'true' || watch === '1';
  switch (method) {
    case 'GET': info.verb = info.name !== undefined ? 'get' : isWatch ? 'watch' : 'list'; break;
    case 'POST': info.verb = 'create'; break;
    case 'PUT': info.verb = 'update'; break;
    case 'PATCH': info.verb = contentType.startsWith('application/apply-patch') ? 'apply' : 'patch'; break;
    case 'DELETE': info.verb = info.name !== undefined ? 'delete' : 'deletecollection'; break;
    default: info.verb = 'other';
  }
  return info;
}
