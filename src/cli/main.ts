#!/usr/bin/env node
// The executable: hands the process's arguments and streams to runCli and exits with its code.
import { runCli } from './run.js';

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stdoutBytes: (chunk: Uint8Array) => process.stdout.write(chunk),
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
});
process.exitCode = code;
