/**
 * Request bodies in Kubernetes protobuf (`application/vnd.kubernetes.protobuf`), turned into the
 * JSON the rest of the server reads. client-go's typed clients (the clientset Helm 3's Secrets
 * storage driver uses) send built-in kinds this way; dynamic clients (Helm applying a chart's
 * objects) send JSON. Only what Helm writes is decoded: Secret (the release records) and
 * DeleteOptions (read as none). Any other kind answers 415, so a client that needs more says so.
 *
 * Envelope (k8s.io/apimachinery runtime/serializer/protobuf): the 4 bytes `k8s\0`, then a
 * runtime.Unknown { typeMeta = 1 { apiVersion = 1, kind = 2 }, raw = 2, contentEncoding = 3,
 * contentType = 4 }. Field numbers below are those of k8s.io/api/core/v1/generated.proto and
 * k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto.
 */
import { StatusError } from './status.js';
import type { Obj } from './types.js';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

interface Field {
  no: number;
  wire: number;
  /** Varint value (wire type 0). */
  int?: bigint;
  /** Bytes (wire type 2). */
  bytes?: Buffer;
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= buf.length) throw unsupported('truncated varint');
      const b = buf[i++]!;
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, int: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      if (i + len > buf.length) throw unsupported('truncated field');
      out.push({ no, wire, bytes: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw unsupported(`wire type ${wire}`);
  }
  return out;
}

function unsupported(why: string): StatusError {
  return new StatusError(415, 'UnsupportedMediaType', `the test server cannot decode this protobuf body (${why}); send JSON`);
}

const str = (f: Field | undefined): string | undefined => f?.bytes?.toString('utf8');

function stringMap(fs: Field[], no: number, value: (b: Buffer) => string): Record<string, string> | undefined {
  const entries = fs.filter((f) => f.no === no && f.bytes);
  if (entries.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const e of entries) {
    const kv = fields(e.bytes!);
    out[str(kv.find((f) => f.no === 1)) ?? ''] = value(kv.find((f) => f.no === 2)?.bytes ?? Buffer.alloc(0));
  }
  return out;
}

function objectMeta(buf: Buffer): Record<string, unknown> {
  const fs = fields(buf);
  const meta: Record<string, unknown> = {};
  const s = (no: number, key: string) => {
    const v = str(fs.find((f) => f.no === no));
    if (v !== undefined && v !== '') meta[key] = v;
  };
  s(1, 'name');
  s(2, 'generateName');
  s(3, 'namespace');
  s(5, 'uid');
  s(6, 'resourceVersion');
  const labels = stringMap(fs, 11, (b) => b.toString('utf8'));
  if (labels) meta.labels = labels;
  const annotations = stringMap(fs, 12, (b) => b.toString('utf8'));
  if (annotations) meta.annotations = annotations;
  const finalizers = fs.filter((f) => f.no === 14).map((f) => str(f)!);
  if (finalizers.length) meta.finalizers = finalizers;
  if (fs.some((f) => f.no === 13)) throw unsupported('ownerReferences');
  return meta;
}

function secret(buf: Buffer, typeMeta: { apiVersion: string; kind: string }): Obj {
  const fs = fields(buf);
  const out: Record<string, unknown> = { apiVersion: typeMeta.apiVersion || 'v1', kind: 'Secret' };
  const meta = fs.find((f) => f.no === 1);
  out.metadata = meta?.bytes ? objectMeta(meta.bytes) : {};
  const data = stringMap(fs, 2, (b) => b.toString('base64'));
  if (data) out.data = data;
  const stringData = stringMap(fs, 4, (b) => b.toString('utf8'));
  if (stringData) out.stringData = stringData;
  const type = str(fs.find((f) => f.no === 3));
  if (type) out.type = type;
  const immutable = fs.find((f) => f.no === 5);
  if (immutable?.int !== undefined) out.immutable = immutable.int !== 0n;
  return out as Obj;
}

/** The JSON text of a protobuf request body; empty for DeleteOptions (the server reads none). */
export function protobufToJson(body: Buffer): string {
  if (body.length === 0) return '';
  if (!body.subarray(0, 4).equals(MAGIC)) throw unsupported('no k8s envelope');
  const unknown = fields(body.subarray(4));
  const tm = fields(unknown.find((f) => f.no === 1)?.bytes ?? Buffer.alloc(0));
  const typeMeta = { apiVersion: str(tm.find((f) => f.no === 1)) ?? '', kind: str(tm.find((f) => f.no === 2)) ?? '' };
  const raw = unknown.find((f) => f.no === 2)?.bytes ?? Buffer.alloc(0);
  if (typeMeta.kind === 'Secret') return JSON.stringify(secret(raw, typeMeta));
  if (typeMeta.kind === 'DeleteOptions') return '';
  throw unsupported(`kind ${typeMeta.kind || '?'}`);
}
