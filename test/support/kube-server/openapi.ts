/**
 * What the real Helm 3 binary (and kubectl) needs of the OpenAPI endpoints: client-side
 * validation downloads `/openapi/v3`, and on 404 falls back to `/openapi/v2` as protobuf. An empty
 * protobuf message is a valid, empty OpenAPI v2 Document; kubectl's validator skips kinds the
 * document does not describe (k8s.io/kubectl/pkg/validation), so every object passes, as on a
 * cluster whose schemas accept it. `/openapi/v3` stays 404 (Helm then uses v2).
 */
import type { ServerResponse } from 'node:http';

/** What a real API server answers (the request's Accept has `@v1.0`, which is not a valid media type). */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** Answers `/openapi/v2` and returns true; false for any other path. */
export function serveOpenApi(path: string, res: ServerResponse): boolean {
  if (path !== '/openapi/v2') return false;
  res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF, 'Content-Length': 0 });
  res.end();
  return true;
}
