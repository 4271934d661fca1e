import type { CommandSpec } from '../command.js';

export const serveCommand: CommandSpec = {
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
};
