#!/usr/bin/env node
// The executable: hands the process's arguments and streams to runCli and exits with its code.
import { runCli } from './run.js';

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  // Settles when the stream has written the chunk (a pipe may hold it until then); a write
  // error still goes to the stream's own error handling, as it did before.
  stdoutBytes: (chunk: Uint8Array) => new Promise<void>((done) => process.stdout.write(chunk, () => done())),
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
});
process.exitCode = code;
