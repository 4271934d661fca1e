// `fleetplan cmp discover|generate`: the Argo CD config-management plugin. Argo CD runs it in the
import type { CommandSpec } from '../command.js';

// Application's source directory; see src/render/leaves/cmp.ts for the variable rules.

export const cmpCommand: CommandSpec = {
  name: 'cmp',
  summary: 'Argo CD config-management plugin: discover / generate (kustomize build + strict substitution)',
  usage: `Usage: fleetplan cmp discover
       fleetplan cmp generate [--variable NAME]... [--kustomize PATH] [--helm PATH] [--enable-alpha-plugins]

Runs in the Application's source directory, as Argo CD's repo-server sidecar does.

discover   prints the kustomization file name when the directory has one (exit 0 either way;
           Argo CD matches on non-empty output)
generate   builds the directory with kustomize (--enable-helm, --load-restrictor LoadRestrictionsNone),
           substitutes \${NAME} and \${NAME:-default}, and prints the manifests. Only declared
           variables are substituted, with values from ARGOCD_ENV_<NAME> (nothing else in the
           environment is read), plus Argo CD's ARGOCD_APP_* build variables. A plain $NAME is
           left alone; $\${NAME} is a literal \${NAME}; an undefined variable fails with its name
           and the file that uses it.

Flags:
  --variable NAME          declare a variable (repeat, or give a comma-separated list)
  --kustomize PATH         kustomize or kubectl binary (default: FLEETPLAN_KUSTOMIZE, PATH, .tools/bin)
  --helm PATH              Helm 3 binary for helmCharts (default: FLEETPLAN_HELM, PATH, .tools/bin)
  --enable-alpha-plugins   pass --enable-alpha-plugins to kustomize (KRM plugins)
`,
  examples: [
    { what: 'is this directory a kustomization? (Argo CD runs this in the Application\'s source directory)', run: 'fleetplan cmp discover', notRun: 'runs in an Application\'s source directory' },
    {
      what: 'build it with CLUSTER_NAME from ARGOCD_ENV_CLUSTER_NAME, as the plugin sidecar does',
      run: 'ARGOCD_ENV_CLUSTER_NAME=etl4 fleetplan cmp generate --variable CLUSTER_NAME',
      notRun: 'runs in an Application\'s source directory, with Argo CD\'s environment',
    },
  ],
  complete: { flags: { kustomize: 'file', helm: 'file', variable: 'none' }, positionals: [['discover', 'generate']] },
  options: {
    variable: { type: 'string', multiple: true },
    kustomize: { type: 'string' },
    helm: { type: 'string' },
    'enable-alpha-plugins': { type: 'boolean' },
  },
  allowPositionals: true,
};
