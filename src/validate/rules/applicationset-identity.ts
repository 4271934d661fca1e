/**
 * `gitops.delivery: applicationset`: the root ApplicationSet templates the values file path from
 * the identity labels environment and region_alias (missingkey=error), so every cluster needs
 * them — from its sector and region, or its own labels (docs/adr/0121-applicationset-delivery.md).
 */
import type { Finding } from '../../model/finding.js';
import { ENVIRONMENT_LABEL, REGION_ALIAS_LABEL, identityLabels } from '../../generate/cluster-identity.js';
import type { RuleDefinition } from '../engine.js';

export const applicationSetIdentityRule: RuleDefinition = {
  name: 'applicationset-identity',
  codes: {
    'appset-identity': {
      severity: 'error',
      summary: 'cluster without sector or region under applicationset delivery',
      help: "The root ApplicationSet reads the values file deploy/<environment>/<region_alias>/argocd/<cluster_type>-values.yaml from the identity Secret's labels; without them Argo CD fails to generate the cluster's Applications. Set spec.sector and spec.region (or spec.labels.environment / region_alias).",
    },
    'appset-reserved-name': {
      severity: 'error',
      summary: 'cluster named deploy under applicationset delivery',
      help: 'Rendered output holds <cluster>/ folders and the shared deploy/ folder of values files side by side; a cluster named deploy would mix them. Rename the cluster.',
    },
  },
  run({ fleet, clusters }) {
    if (fleet.delivery !== 'applicationset') return [];
    const out: Finding[] = [];
    for (const c of clusters) {
      if (c.name === 'deploy') {
        out.push({
          severity: 'error',
          code: 'appset-reserved-name',
          message: 'cluster "deploy" would render into the deploy/ folder of the shared values files',
          file: c.file,
          hint: 'rename the cluster',
          cluster: c.name,
        });
      }
      const labels = identityLabels(c);
      for (const [label, field] of [[ENVIRONMENT_LABEL, 'sector'], [REGION_ALIAS_LABEL, 'region']] as const) {
        if (labels[label] !== undefined) continue;
        out.push({
          severity: 'error',
          code: 'appset-identity',
          message: `cluster ${c.name} has no ${field}: its identity Secret lacks the label ${label}, which the root ApplicationSet's values file path needs`,
          file: c.file,
          path: 'spec',
          hint: `set spec.${field} (or spec.labels.${label})`,
          cluster: c.name,
        });
      }
    }
    return out;
  },
};
