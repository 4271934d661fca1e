#!/usr/bin/env node
// The executable: hands the process's arguments and streams to runCli and exits with its code.
// V8's tier-up budget is raised before the rest of the command line loads (docs/adr/0391): a
// fleetplan run lasts a second or a few, and V8's default budget has its optimising compiler take
// a core for functions the run then barely uses.
import { raiseTierUpBudget } from '../adapters/tier-up.js';

raiseTierUpBudget();
const { runCli } = await import('./run.js');

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  // Settles when the stream has written the chunk (a pipe may hold it until then); a write
  // error still goes to the stream's own error handling, as it did before.
  stdoutBytes: (chunk: Uint8Array) => new Promise<void>((done) => process.stdout.write(chunk, () => done())),
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  // Read when a command asks for it: process.stdin opens a stream (a file, pipe or terminal) the
  // first time it is read, which a run that never reads its input does not need (docs/adr/0396).
  get stdin() {
    return process.stdin;
  },
});
process.exitCode = code;
