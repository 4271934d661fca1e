/**
 * The JSON Schema of each file kind (`fleetplan schema KIND` prints them; loading validates
 * against them). One source of truth: the TypeScript types in src/model/spec.ts mirror these.
 */
import type { JsonSchema } from './json-schema.js';

export const API_VERSION = 'fleetplan.io/v1alpha1';
export const KINDS = ['Fleet', 'Cluster', 'Group'] as const;
export type Kind = (typeof KINDS)[number];

const dnsLabel = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const dnsSubdomain = '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$';
const varName = '^[A-Za-z_][A-Za-z0-9_]*$';
/** A pattern that also accepts a value with `${VAR}` (checked after substitution, where it matters). */
const orVariable = (pattern: string) => `${pattern}|\\$\\{`;

const stringMap: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
const scalar: JsonSchema = { type: ['string', 'integer', 'number', 'boolean'] };

const defs: Record<string, JsonSchema> = {
  vars: {
    type: 'object',
    description: 'Variables for ${NAME} substitution. Values may refer to other variables.',
    patternProperties: { [varName]: scalar },
    additionalProperties: false,
  },
  app: {
    type: 'object',
    description: 'One Argo CD Application (or Flux Kustomization). Fields merge deeply across layers.',
    additionalProperties: false,
    properties: {
      enabled: { type: 'boolean', description: 'false removes the app from this cluster.' },
      path: { type: 'string', minLength: 1, description: 'Repository path of a kustomize directory or local chart.' },
      chart: { type: 'string', minLength: 1, description: 'Helm chart name in a Helm repository (with repoURL and targetRevision).' },
      repoURL: { type: 'string', minLength: 1, description: 'Source repository; default: the fleet repoURL.' },
      targetRevision: { type: 'string', minLength: 1, description: 'Overrides the revision chosen by the sector (chart version for charts).' },
      helm: {
        type: 'object',
        additionalProperties: false,
        properties: {
          releaseName: { type: 'string' },
          valueFiles: { type: 'array', items: { type: 'string' } },
          values: { type: 'object', description: 'Helm values (valuesObject).' },
        },
      },
      namespace: { type: 'string', minLength: 1, description: 'Destination namespace.' },
      server: { type: 'string', minLength: 1, description: 'Destination API server; default https://kubernetes.default.svc.' },
      project: { type: 'string', pattern: dnsSubdomain },
      wave: { type: 'integer', description: 'Sync wave. Never lower than one more than any of its needs.' },
      needs: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Apps on the same cluster that must be healthy first.' },
      provides: { type: 'array', items: { type: 'string' }, description: 'API groups whose CRDs this app installs.' },
      syncOptions: { type: 'array', items: { type: 'string' } },
      syncPolicy: { type: 'object', description: 'Argo CD syncPolicy (automated, retry, ...); syncOptions is set from syncOptions.' },
      ignoreDifferences: { type: 'array', items: { type: 'object' } },
      annotations: stringMap,
      labels: stringMap,
      finalizers: { type: 'array', items: { type: 'string' } },
    },
  },
  apps: {
    type: 'object',
    patternProperties: { [dnsSubdomain]: { $ref: '#/$defs/app' } },
    additionalProperties: false,
  },
  secretStoreRef: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1 },
      kind: { enum: ['ClusterSecretStore', 'SecretStore'], description: 'Default ClusterSecretStore.' },
    },
  },
  credentialRef: {
    type: 'object',
    description: 'Where a credential lives: `key` (and `property`) in a secret store, read by an ExternalSecret, or `secretName` of a Secret that already exists on the hub. Never the credential itself.',
    additionalProperties: false,
    properties: {
      key: { type: 'string', minLength: 1, description: 'Key in the secret store.' },
      property: { type: 'string', minLength: 1, description: 'Property of that key.' },
      store: { $ref: '#/$defs/secretStoreRef' },
      secretName: { type: 'string', pattern: orVariable(dnsSubdomain), description: 'An existing Secret in the cluster namespace on the hub.' },
    },
  },
  pool: {
    type: 'object',
    additionalProperties: false,
    properties: {
      replicas: { type: 'integer', minimum: 0 },
      instanceType: { type: 'string', minLength: 1 },
      rootVolume: {
        type: 'object',
        additionalProperties: false,
        properties: { size: { type: 'integer', minimum: 1 }, type: { type: 'string', minLength: 1 }, iops: { type: 'integer', minimum: 0 } },
      },
      minSize: { type: 'integer', minimum: 0 },
      maxSize: { type: 'integer', minimum: 0 },
      diskSize: { type: 'integer', minimum: 1 },
      amiType: { type: 'string', minLength: 1 },
    },
  },
  provision: {
    type: 'object',
    description: 'How the hub provisions this cluster (Hive on AWS, Cluster API for EKS, or ACM agent-based install on bare metal). fleetplan generates the hub-side objects as one app on the hub named after the cluster.',
    required: ['installer'],
    additionalProperties: false,
    properties: {
      installer: { enum: ['hive-aws', 'capi-eks', 'agent'] },
      version: { type: 'string', pattern: orVariable('^v?[0-9]+\\.[0-9]+(\\.[0-9]+)?$'), description: 'OpenShift version (hive-aws, agent) or Kubernetes version (capi-eks), e.g. "4.20" or "1.28". Quote it.' },
      channel: { type: 'string', minLength: 1, description: 'Update channel, e.g. stable-4.20.' },
      imageSet: { type: 'string', pattern: orVariable(dnsSubdomain), description: 'ClusterImageSet name; default img<version>-multi-appsub.' },
      baseDomain: { type: 'string', pattern: orVariable(dnsSubdomain) },
      region: { type: 'string', minLength: 1, description: 'Cloud region; default the cluster\'s region.' },
      wave: { type: 'integer', description: 'Sync wave of the provisioning app on the hub. Default 20.' },
      clusterSet: { type: 'string', pattern: orVariable(dnsLabel), description: 'ManagedClusterSet the cluster joins. Default: the fleet name.' },
      labels: stringMap,
      controlPlane: { $ref: '#/$defs/pool' },
      workers: { $ref: '#/$defs/pool' },
      networks: {
        type: 'object',
        additionalProperties: false,
        properties: {
          machine: { type: 'string', minLength: 1, description: 'Machine network CIDR.' },
          pod: { type: 'string', minLength: 1, description: 'Pod (cluster) network CIDR.' },
          hostPrefix: { type: 'integer', minimum: 1, maximum: 128 },
          service: { type: 'string', minLength: 1, description: 'Service network CIDR.' },
          apiVIPs: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 2 },
          ingressVIPs: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 2 },
          type: { enum: ['OVNKubernetes', 'OpenShiftSDN', 'Cilium', 'Calico'] },
        },
      },
      sshPublicKey: { type: 'string', minLength: 1, description: 'Public SSH key for the nodes (not a secret).' },
      credentials: {
        type: 'object',
        additionalProperties: false,
        properties: {
          store: { $ref: '#/$defs/secretStoreRef' },
          refreshInterval: { type: 'string', pattern: '^[0-9]+(s|m|h)$' },
          pullSecret: { $ref: '#/$defs/credentialRef' },
          cloud: { $ref: '#/$defs/credentialRef' },
          bmc: { $ref: '#/$defs/credentialRef' },
          installConfig: { $ref: '#/$defs/credentialRef' },
        },
      },
      hosts: {
        type: 'array',
        description: 'agent: the bare-metal hosts, booted through their BMC.',
        items: {
          type: 'object',
          required: ['name', 'role', 'bootMACAddress', 'bmc'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', pattern: dnsLabel },
            role: { enum: ['master', 'worker'] },
            bootMACAddress: { type: 'string', pattern: orVariable('^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$') },
            bmc: {
              type: 'object',
              required: ['address'],
              additionalProperties: false,
              properties: {
                address: { type: 'string', minLength: 1, description: 'e.g. redfish-virtualmedia://10.0.0.1:8000/redfish/v1/Systems/<id>' },
                disableCertificateVerification: { type: 'boolean' },
                credentials: { $ref: '#/$defs/credentialRef' },
              },
            },
            rootDeviceHints: { type: 'object', additionalProperties: { type: ['string', 'integer', 'boolean'] } },
            network: {
              type: 'object',
              required: ['interface', 'address'],
              additionalProperties: false,
              description: 'Static networking (an NMStateConfig).',
              properties: {
                interface: { type: 'string', minLength: 1 },
                address: { type: 'string', minLength: 1, description: 'address/prefix' },
                gateway: { type: 'string', minLength: 1 },
                dns: { type: 'array', items: { type: 'string', minLength: 1 } },
                macAddress: { type: 'string', pattern: '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$' },
              },
            },
          },
        },
      },
    },
  },
  selector: {
    type: 'object',
    description: 'Clusters matching every given field.',
    additionalProperties: false,
    properties: {
      roles: { type: 'array', items: { enum: ['hub', 'spoke', 'regional', 'management', 'standalone', 'infra'] } },
      names: { type: 'array', items: { type: 'string', minLength: 1 } },
      groups: { type: 'array', items: { type: 'string', minLength: 1 } },
      labels: stringMap,
    },
  },
  validation: {
    type: 'object',
    description: 'Validation settings: rule levels and placement policies.',
    additionalProperties: false,
    properties: {
      rules: {
        type: 'object',
        description: 'Finding code → off | error | warning | info (`fleetplan validate -o sarif` lists the codes).',
        additionalProperties: { enum: ['off', 'error', 'warning', 'info'] },
      },
      placement: {
        type: 'array',
        description: 'Where apps may, and must, run.',
        items: {
          type: 'object',
          required: ['name', 'apps'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1 },
            apps: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'App name globs (`*` matches any characters).' },
            allowedOn: { $ref: '#/$defs/selector', description: 'Matching apps may run only on these clusters.' },
            requiredOn: { $ref: '#/$defs/selector', description: 'Every one of these clusters must get a matching app.' },
            from: { enum: ['cluster', 'hub'], description: 'With requiredOn: the app runs on the cluster itself (default) or on its hub.' },
            severity: { enum: ['error', 'warning', 'info'] },
          },
        },
      },
    },
  },
  network: {
    type: 'object',
    description: 'Fleet-wide network identity: the mesh or routed network the cluster shares, its mesh cluster ID, and the networks of clusters fleetplan does not provision (provisioned clusters declare theirs in provision.networks).',
    additionalProperties: false,
    properties: {
      mesh: { type: 'string', minLength: 1, description: 'Clusters naming the same mesh (or routed network) must not overlap.' },
      clusterID: { type: 'string', minLength: 1, description: 'Mesh/CNI cluster ID (e.g. Cilium ClusterMesh, Submariner); unique per mesh.' },
      podCIDR: { $ref: '#/$defs/cidrs' },
      serviceCIDR: { $ref: '#/$defs/cidrs' },
      machineCIDR: { $ref: '#/$defs/cidrs' },
      apiVIP: { $ref: '#/$defs/addresses' },
      ingressVIP: { $ref: '#/$defs/addresses' },
    },
  },
  cidrs: { oneOf: [{ type: 'string', minLength: 1 }, { type: 'array', items: { type: 'string', minLength: 1 } }] },
  addresses: { oneOf: [{ type: 'string', minLength: 1 }, { type: 'array', items: { type: 'string', minLength: 1 } }] },
  metadata: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', pattern: dnsLabel, maxLength: 63 },
      labels: stringMap,
      annotations: stringMap,
    },
  },
};

function kindSchema(kind: Kind, spec: JsonSchema, description: string): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://fleetplan.io/schemas/v1alpha1/${kind.toLowerCase()}.json`,
    title: kind,
    description,
    type: 'object',
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
    additionalProperties: false,
    properties: {
      apiVersion: { const: API_VERSION },
      kind: { const: kind },
      metadata: { $ref: '#/$defs/metadata' },
      spec,
    },
    $defs: defs,
  };
}

const sector: JsonSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: dnsLabel },
    revision: { type: 'string', minLength: 1, description: 'Pinned commit (or ref) this sector tracks; default: the fleet revision.' },
    protected: { type: 'boolean', description: 'Must pin a commit (production is protected by default).' },
  },
};

const project: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    description: { type: 'string' },
    sourceRepos: { type: 'array', items: { type: 'string' } },
    destinations: { type: 'array', items: { type: 'object' } },
    clusterResourceWhitelist: { type: 'array', items: { type: 'object' } },
    namespaceResourceWhitelist: { type: 'array', items: { type: 'object' } },
    annotations: stringMap,
    labels: stringMap,
  },
};

function secretRef(description: string): Record<string, unknown> {
  return {
    type: 'object',
    description,
    required: ['namespace', 'name'],
    additionalProperties: false,
    properties: { namespace: { type: 'string', pattern: dnsLabel }, name: { type: 'string', minLength: 1 } },
  };
}

export const fleetSchema = kindSchema(
  'Fleet',
  {
    type: 'object',
    required: ['repoURL'],
    additionalProperties: false,
    properties: {
      repoURL: { type: 'string', minLength: 1, description: 'The fleet repository as Argo CD reaches it.' },
      revision: { type: 'string', minLength: 1, description: 'Branch, tag or commit clusters track unless their sector pins one. Default HEAD.' },
      platform: { enum: ['openshift', 'kubernetes'], description: 'Default platform of clusters. Default openshift.' },
      gitops: {
        type: 'object',
        additionalProperties: false,
        properties: {
          engine: { enum: ['argocd', 'flux'] },
          delivery: { enum: ['app-of-apps', 'applicationset'] },
          namespace: { type: 'string', pattern: dnsLabel, description: 'Namespace of Argo CD. Default openshift-gitops (OpenShift) or argocd.' },
          renderedPath: { type: 'string', minLength: 1, description: 'Where `fleetplan render --out` output is committed; the root Application reads <renderedPath>/<cluster>. Default rendered.' },
          plugin: {
            type: 'object',
            description: 'Run `fleetplan cmp` as an Argo CD config-management plugin, so leaf manifests get the cluster variables at sync time.',
            required: ['image'],
            additionalProperties: false,
            properties: {
              image: { type: 'string', minLength: 1, description: 'Sidecar image with fleetplan, kustomize (or kubectl) and Helm 3 (see Containerfile).' },
              name: { type: 'string', pattern: dnsLabel, description: 'Plugin name; default fleetplan.' },
            },
          },
          applicationset: {
            type: 'object',
            description: 'Settings of `delivery: applicationset` (the root ApplicationSet of seed 004).',
            additionalProperties: false,
            properties: {
              directories: {
                type: 'array',
                minItems: 1,
                items: { type: 'string', minLength: 1 },
                description:
                  'Git directory generator paths: each directory found is one chart, i.e. one Application per cluster. Go templates over the cluster identity Secret. Default argocd/config/{{ .metadata.labels.cluster_type }}/* and argocd/config/shared/*.',
              },
            },
          },
          selfManaged: {
            type: 'boolean',
            description: 'After the hand-off, Argo CD manages its own configuration through the Application gitops-self, which reads the bootstrap files. Default true.',
          },
          bootstrapRunner: {
            description: 'Bootstrap each provisioned spoke from its hub once its ManagedCluster is Available: `job` (a Kubernetes Job with its ServiceAccount and RBAC) or `tekton` (a Task, a Pipeline and a PipelineRun), running the fleetplan image (Containerfile).',
            oneOf: [
              { enum: ['job', 'tekton'] },
              {
                type: 'object',
                required: ['type'],
                additionalProperties: false,
                properties: {
                  type: { enum: ['job', 'tekton'] },
                  image: { type: 'string', minLength: 1, description: 'The fleetplan image. Default gitops.plugin.image.' },
                  timeout: { type: 'string', pattern: '^([0-9]+(ms|s|m|h))+$', description: 'bootstrap --timeout of the runner, including the wait for the install. Default 2h.' },
                },
              },
            ],
          },
          mirror: {
            type: 'object',
            description: 'The internal Git service (seed 000, phase 2): once its app is Healthy, `fleetplan bootstrap` (or `fleetplan mirror`) pushes the repository to it and switches the root Application and every generated source to `url`.',
            required: ['url', 'app', 'credentials'],
            additionalProperties: false,
            properties: {
              url: { type: 'string', minLength: 1, description: 'The repository URL inside the cluster (http or https), e.g. http://gitea-http.gitea.svc.cluster.local:3000/platform/fleet.git.' },
              pushURL: { type: 'string', minLength: 1, description: 'Where fleetplan pushes from where it runs (a route or port-forward), when url is reachable only inside the cluster. Default url.' },
              app: { type: 'string', pattern: dnsLabel, description: 'The app on each cluster that deploys the Git service.' },
              branch: { type: 'string', minLength: 1, description: 'Branch pushed to. Default: the cluster revision when it is a branch name, else main.' },
              credentials: {
                type: 'object',
                description: 'The push credentials, by reference to a Secret on the cluster (or the ExternalSecret that makes it); never a literal value.',
                additionalProperties: false,
                properties: {
                  secretRef: secretRef('A Secret on the cluster holding the push credentials.'),
                  externalSecretRef: secretRef('An ExternalSecret; its target Secret (spec.target.name, default its own name) holds the push credentials.'),
                  usernameKey: { type: 'string', minLength: 1, description: 'Key of the username in the Secret. Default username.' },
                  passwordKey: { type: 'string', minLength: 1, description: 'Key of the password or token in the Secret. Default password.' },
                },
              },
            },
          },
          operator: {
            type: 'object',
            additionalProperties: false,
            properties: {
              channel: { type: 'string' },
              source: { type: 'string' },
              sourceNamespace: { type: 'string' },
              installPlanApproval: { enum: ['Automatic', 'Manual'] },
            },
          },
        },
      },
      sectors: { type: 'array', items: sector, description: 'Rollout sectors in promotion order.' },
      vars: { $ref: '#/$defs/vars' },
      defaults: { $ref: '#/$defs/app' },
      projects: { type: 'object', additionalProperties: project },
      validation: { $ref: '#/$defs/validation' },
    },
  },
  'The fleet: its repository, revision, GitOps engine, sectors, variables and app defaults (fleet.yaml).',
);

export const clusterSchema = kindSchema(
  'Cluster',
  {
    type: 'object',
    required: ['role'],
    additionalProperties: false,
    properties: {
      role: { enum: ['hub', 'spoke', 'regional', 'management', 'standalone', 'infra'] },
      hub: { type: 'string', pattern: dnsLabel, description: 'The hub cluster that manages this one.' },
      region: { type: 'string', minLength: 1 },
      sector: { type: 'string', pattern: dnsLabel },
      platform: { enum: ['openshift', 'kubernetes'] },
      server: { type: 'string', minLength: 1, description: 'API server URL as the hub sees it.' },
      groups: { type: 'array', items: { type: 'string', pattern: dnsLabel } },
      labels: stringMap,
      vars: { $ref: '#/$defs/vars' },
      apps: { $ref: '#/$defs/apps' },
      provision: { $ref: '#/$defs/provision' },
      network: { $ref: '#/$defs/network' },
    },
  },
  'One cluster: identity, role, hub, region, sector, groups, variables and its own apps (clusters/<name>/cluster.yaml).',
);

export const groupSchema = kindSchema(
  'Group',
  {
    type: 'object',
    additionalProperties: false,
    properties: {
      description: { type: 'string' },
      apps: { $ref: '#/$defs/apps' },
    },
  },
  'Apps shared by every cluster that lists the group (groups/<name>/group.yaml).',
);

export const schemas: Record<Kind, JsonSchema> = { Fleet: fleetSchema, Cluster: clusterSchema, Group: groupSchema };
