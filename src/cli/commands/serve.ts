import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { completeRead, repoRoot } from '../common.js';
import { UsageError, isLoopback, startServe } from '../../index.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'the fleet dashboard in a browser: matrix, plans as graphs, findings, sectors, diffs, bootstrap progress',
  usage: `Usage: fleetplan serve [--repo DIR] [--port P] [--host H [--allow-remote]] [--progress FILE] [--open]

Serves the fleet dashboard on http://127.0.0.1:7420/ until interrupted: the clusters × apps matrix
with filters, each cluster's plan as a graph with its Applications, the findings linked to their
files, the sectors and their commits, the diff between two revisions, and a bootstrap's progress.
The page updates by itself when the repository's files change.
  --port P         the port (default 7420; 0: any free port)
  --host H         the address to listen on (default 127.0.0.1); a non-loopback address is refused
                   unless --allow-remote is given too: the dashboard has no authentication
  --progress FILE  show the bootstrap progress in FILE, as \`fleetplan bootstrap -o json > FILE\` writes it
  --open           open the page in the default browser`,
  examples: [
    { what: 'the lab fleet\'s dashboard on http://127.0.0.1:7420/', run: 'fleetplan serve --repo examples/lab', notRun: 'serves until interrupted' },
    { what: 'a bootstrap\'s progress, live, beside the plan', run: 'fleetplan serve --repo examples/lab --progress /tmp/hub.ndjson', notRun: 'serves until interrupted' },
    { what: 'refused: an address other hosts can reach, without --allow-remote (exit 2)', run: 'fleetplan serve --repo examples/lab --host 0.0.0.0', exit: 2 },
  ],
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-remote': { type: 'boolean' },
    progress: { type: 'string' },
    open: { type: 'boolean' },
    kustomize: { type: 'string' },
    helm: { type: 'string' },
  },
  complete: { flags: { port: 'none', host: 'none', progress: 'file', kustomize: 'file', helm: 'file' } },
  async run(ctx) {
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
  },
};

function openBrowser(url: string, env: Readonly<Record<string, string | undefined>>): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true, env: env as NodeJS.ProcessEnv });
  child.on('error', () => void 0);
  child.unref();
}
