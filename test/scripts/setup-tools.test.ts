import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

interface ZipEntry { name: string; method: number; size: number; mode: number }
interface ZipReader {
  readCentralDirectory(buf: Buffer): ZipEntry[];
  readEntry(buf: Buffer, e: ZipEntry): Buffer;
  safeTarget(dir: string, name: string): string;
}
const load = async (): Promise<ZipReader> => (await import(pathToFileURL(resolve('scripts/setup-tools.mjs')).href)) as ZipReader;

/** A minimal zip archive: one local header + data per entry, then the central directory. */
function makeZip(entries: { name: string; data: Buffer; deflate: boolean; mode: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const body = e.deflate ? deflateRawSync(e.data) : e.data;
    const crc = crc32(e.data);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(e.deflate ? 8 : 0, 8);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(body.length, 18);
    lh.writeUInt32LE(e.data.length, 22);
    lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(e.deflate ? 8 : 0, 10);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(body.length, 20);
    ch.writeUInt32LE(e.data.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(((0o100000 | e.mode) << 16) >>> 0, 38);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, body);
    centrals.push(ch, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

test('reads stored and deflated entries with their unix modes', async () => {
  const zip = await load();
  const buf = makeZip([
    { name: 'kubectl/kubectl', data: Buffer.from('#!/bin/sh\necho kubectl\n'), deflate: true, mode: 0o755 },
    { name: 'helm/helm', data: Buffer.from('helm'), deflate: false, mode: 0o700 },
  ]);
  const entries = zip.readCentralDirectory(buf);
  assert.deepEqual(entries.map((e) => [e.name, e.method, e.mode]), [['kubectl/kubectl', 8, 0o755], ['helm/helm', 0, 0o700]]);
  assert.equal(zip.readEntry(buf, entries[0]!).toString(), '#!/bin/sh\necho kubectl\n');
  assert.equal(zip.readEntry(buf, entries[1]!).toString(), 'helm');
});

test('detects a corrupted entry by its CRC-32', async () => {
  const zip = await load();
  const buf = makeZip([{ name: 'helm/helm', data: Buffer.from('helm'), deflate: false, mode: 0o755 }]);
  buf[30 + 'helm/helm'.length] = 'H'.charCodeAt(0);
  assert.throws(() => zip.readEntry(buf, zip.readCentralDirectory(buf)[0]!), /CRC-32 mismatch/);
});

const escapes = ['../evil', '/etc/passwd', 'a/../../evil', ''];
for (const name of escapes) {
  test(`refuses an entry named ${JSON.stringify(name)} that would land outside the target`, async () => {
    const zip = await load();
    assert.throws(() => zip.safeTarget('/tmp/target', name), /refusing zip entry/);
  });
}

test('accepts an entry inside the target', async () => {
  const zip = await load();
  assert.equal(zip.safeTarget('/tmp/target', 'kubectl'), '/tmp/target/kubectl');
});
