/**
 * `fleetplan serve`: the fleet dashboard. Its name, help and flags are in ../commands/serve.ts;
 * this module is imported when the command runs (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { repoRoot } from '../common.js';
import { completeRead } from '../fleet-read.js';
import { UsageError } from '../../entry/core.js';
import { isLoopback, startServe } from '../../entry/serve.js';

export async function run(ctx: CommandContext): Promise<number> {
  const root = repoRoot(ctx);
  const portText = typeof ctx.values.port === 'string' ? ctx.values.port : '7420';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(`--port must be a port number (0-65535), got "${portText}"`);
  const host = typeof ctx.values.host === 'string' ? ctx.values.host : '127.0.0.1';
  const allowRemote = ctx.values['allow-remote'] === true;
  const progressFile = typeof ctx.values.progress === 'string' ? resolve(ctx.io.cwd, ctx.values.progress) : undefined;
  const log = (line: string) => void ctx.io.stderr.write(`fleetplan serve: ${line}\n`);
  const server = await startServe({
    root,
    host,
    port,
    allowRemote,
    env: ctx.io.env,
    complete: (result, at) => completeRead(ctx, result, at, { clusterSecrets: false }),
    log,
    ...(progressFile ? { progressFile } : {}),
  });
  if (!isLoopback(host)) log(`listening on ${host}, which is not a loopback address: anyone who can reach it sees the repository`);
  log(`${server.url} (watching ${root} with ${server.watchMode}; Ctrl-C to stop)`);
  if (ctx.values.open === true) openBrowser(server.url, ctx.io.env);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

function openBrowser(url: string, env: Readonly<Record<string, string | undefined>>): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true, env: env as NodeJS.ProcessEnv });
  child.on('error', () => void 0);
  child.unref();
}
