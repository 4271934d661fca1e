/**
 * Kubernetes `Status` error bodies, worded as the real API server words them, so that clients
 * (and the messages they show users) meet the same text here as against a cluster.
 */
import type { Obj, ResourceType } from './types.js';

export class StatusError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details: Obj | undefined;
  /** Extra response headers (Retry-After). */
  readonly headers: Record<string, string>;

  constructor(code: number, reason: string, message: string, details?: Obj, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
  }

  body(): Obj {
    const b: Obj = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason, code: this.code };
    if (this.details) b.details = this.details;
    return b;
  }
}

/** `deployments.apps` or `configmaps`: how messages name a resource. */
export function qualifiedResource(rt: Pick<ResourceType, 'group' | 'plural'>): string {
  return rt.group === '' ? rt.plural : `${rt.plural}.${rt.group}`;
}

function details(rt: Pick<ResourceType, 'group' | 'plural'>, name: string): Obj {
  return { name, group: rt.group, kind: rt.plural };
}

export function notFound(rt: Pick<ResourceType, 'group' | 'plural'>, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualifiedResource(rt)} "${name}" not found`, details(rt, name));
}

export function alreadyExists(rt: ResourceType, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualifiedResource(rt)} "${name}" already exists`, details(rt, name));
}

export function conflict(rt: ResourceType, name: string, why: string): StatusError {
  return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(rt)} "${name}": ${why}`, details(rt, name));
}

export const MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

export interface FieldCause {
  field: string;
  message: string;
  type?: string;
}

export function invalid(rt: ResourceType, name: string, causes: FieldCause[]): StatusError {
  const text = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  const msg = `${rt.kind} "${name}" is invalid: ${causes.length > 1 ? `[${text}]` : text}`;
  return new StatusError(422, 'Invalid', msg, {
    ...details(rt, name),
    kind: rt.kind,
    causes: causes.map((c) => ({ reason: c.type ?? 'FieldValueInvalid', message: c.message, field: c.field })),
  });
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function methodNotAllowed(message = 'the server does not allow this method on the requested resource'): StatusError {
  return new StatusError(405, 'MethodNotAllowed', message);
}

export function unsupportedMediaType(contentType: string): StatusError {
  return new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got ${contentType})`);
}

export function pageNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource');
}

export function expired(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

export function tooManyRequests(retryAfterSeconds: number): StatusError {
  return new StatusError(429, 'TooManyRequests', 'the server has received too many requests and has asked us to try again later', { retryAfterSeconds }, {
    'Retry-After': String(retryAfterSeconds),
  });
}

export function internalError(message = 'an error on the server ("injected fault") has prevented the request from succeeding'): StatusError {
  return new StatusError(500, 'InternalError', message);
}

export function serviceUnavailable(retryAfterSeconds: number): StatusError {
  return new StatusError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request', { retryAfterSeconds }, {
    'Retry-After': String(retryAfterSeconds),
  });
}
