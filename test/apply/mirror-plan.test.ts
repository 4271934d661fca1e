/** gitops.mirror in fleet.yaml: its checks (file:line), `render --phase 2`, and the phase-2 stages of `plan`. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { loadFleet } from '../../src/index.js';
import { MIRROR_URL, mirrorFleetFiles } from '../support/mirror-fleet.js';

const PUSH = 'https://gitea.apps.example.com/platform/fleet.git';
const NO_MIRROR = '    # no mirror\n';

function mirrorBlock(lines: string): string {
  return `    mirror:\n${lines.split('\n').filter((l) => l !== '').map((l) => `      ${l}\n`).join('')}`;
}

describe('gitops.mirror is checked where it is written', () => {
  const cases: Array<{ name: string; mirror: string; code: string; line: number; message: RegExp }> = [
    {
      name: 'rejects a URL holding credentials',
      mirror: mirrorBlock(`url: http://admin:hunter2@gitea.gitea.svc:3000/fleet.git\napp: gitea\ncredentials:\n  secretRef: {namespace: gitea, name: push}`),
      code: 'mirror-url', line: 12, message: /gitops\.mirror\.url holds credentials in the URL/,
    },
    {
      name: 'rejects an ssh URL (the push authenticates over HTTP)',
      mirror: mirrorBlock(`url: ssh://git@gitea.gitea.svc/fleet.git\napp: gitea\ncredentials:\n  secretRef: {namespace: gitea, name: push}`),
      code: 'mirror-url', line: 12, message: /must be http or https/,
    },
    {
      name: 'rejects the fleet repository itself as the mirror',
      mirror: mirrorBlock(`url: https://git.example.com/platform/fleet\napp: gitea\ncredentials:\n  secretRef: {namespace: gitea, name: push}`),
      code: 'mirror-url', line: 12, message: /is the fleet repository itself/,
    },
    {
      name: 'rejects credentials naming both a Secret and an ExternalSecret',
      mirror: mirrorBlock(`url: ${MIRROR_URL}\napp: gitea\ncredentials:\n  secretRef: {namespace: gitea, name: push}\n  externalSecretRef: {namespace: gitea, name: push}`),
      code: 'mirror-credentials', line: 15, message: /exactly one of secretRef or externalSecretRef, found both/,
    },
    {
      name: 'rejects credentials naming neither',
      mirror: mirrorBlock(`url: ${MIRROR_URL}\napp: gitea\ncredentials:\n  usernameKey: user`),
      code: 'mirror-credentials', line: 15, message: /found neither/,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const dir = writeTree(mirrorFleetFiles(PUSH, c.mirror));
      try {
        const { findings } = loadFleet(dir);
        const f = findings.find((x) => x.code === c.code);
        assert.ok(f, `a ${c.code} finding among ${JSON.stringify(findings)}`);
        assert.equal(f.severity, 'error');
        assert.equal(f.file, 'fleet.yaml');
        assert.equal(f.line, c.line);
        assert.match(f.message, c.message);
      } finally {
        removeTree(dir);
      }
    });
  }

  test('rejects a literal password: the schema allows references only', async () => {
    const dir = writeTree(mirrorFleetFiles(PUSH, mirrorBlock(`url: ${MIRROR_URL}\napp: gitea\ncredentials:\n  secretRef: {namespace: gitea, name: push}\n  password: hunter2`)));
    try {
      const r = await cli(['validate', '--repo', dir]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /fleet\.yaml:16:\d+ spec\.gitops\.mirror\.credentials\.password: unknown field "password"/);
    } finally {
      removeTree(dir);
    }
  });

  test('accepts a valid mirror and fills the defaults', () => {
    const dir = writeTree(mirrorFleetFiles(PUSH));
    try {
      const { fleet, findings } = loadFleet(dir);
      assert.deepEqual(findings.filter((f) => f.severity === 'error'), []);
      assert.deepEqual(fleet.mirror, {
        url: MIRROR_URL, pushURL: PUSH, app: 'gitea',
        credentials: { kind: 'Secret', namespace: 'gitea', name: 'fleet-push', usernameKey: 'username', passwordKey: 'password' },
      });
    } finally {
      removeTree(dir);
    }
  });
});

describe('render --phase 2', () => {
  test('writes the self-referencing objects: the root and the fleet\'s sources read the mirror', async () => {
    const dir = writeTree(mirrorFleetFiles(PUSH));
    try {
      const r = await cli(['render', '--repo', dir, '--phase', '2', '--out', 'out'], dir);
      assert.equal(r.code, 0, r.stderr);
      const { readFileSync, existsSync } = await import('node:fs');
      const root = readFileSync(`${dir}/out/hub/phase-2/bootstrap/90-root-application.yaml`, 'utf8');
      assert.match(root, new RegExp(`repoURL: ${MIRROR_URL}`));
      assert.match(root, /path: rendered\/hub\/phase-2\n/);
      assert.match(readFileSync(`${dir}/out/hub/phase-2/apps/config.yaml`, 'utf8'), new RegExp(`repoURL: ${MIRROR_URL}`));
      assert.match(readFileSync(`${dir}/out/hub/phase-2/apps/metrics.yaml`, 'utf8'), /repoURL: https:\/\/charts\.example\.com/);
      assert.match(readFileSync(`${dir}/out/hub/phase-2/projects/platform.yaml`, 'utf8'), new RegExp(`- ${MIRROR_URL}`));
      // Argo CD's own Application is in the tree the phase-2 root reads (else the root prunes it), reading the mirror.
      assert.match(readFileSync(`${dir}/out/hub/phase-2/apps/gitops-self.yaml`, 'utf8'), new RegExp(`repoURL: ${MIRROR_URL}`));
      // Phase 1 is written beside it, as without --phase.
      assert.match(readFileSync(`${dir}/out/hub/apps/config.yaml`, 'utf8'), /repoURL: https:\/\/git\.example\.com\/platform\/fleet\.git/);
      assert.ok(existsSync(`${dir}/out/hub/bootstrap`));
    } finally {
      removeTree(dir);
    }
  });

  test('render without it is what the fleet renders without a mirror', async () => {
    const withMirror = writeTree(mirrorFleetFiles(PUSH));
    const without = writeTree(mirrorFleetFiles(PUSH, NO_MIRROR));
    try {
      const a = await cli(['render', '--repo', withMirror]);
      const b = await cli(['render', '--repo', without]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      assert.equal(a.stdout, b.stdout);
      assert.doesNotMatch(a.stdout, /phase-2|gitea-http/);
    } finally {
      removeTree(withMirror);
      removeTree(without);
    }
  });

  test('--phase 2 without gitops.mirror is a usage error', async () => {
    const dir = writeTree(mirrorFleetFiles(PUSH, NO_MIRROR));
    try {
      const r = await cli(['render', '--repo', dir, '--phase', '2']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--phase 2 needs an internal Git service: this fleet has no gitops.mirror/);
    } finally {
      removeTree(dir);
    }
  });
});

describe('plan shows both phases', () => {
  test('text: the bootstrap stages, then phase 2 with what it pushes, applies and awaits', async () => {
    const dir = writeTree(mirrorFleetFiles(PUSH));
    try {
      const r = await cli(['plan', '--repo', dir]);
      assert.equal(r.code, 0, r.stderr);
      const out = r.stdout;
      assert.ok(out.indexOf('  bootstrap') < out.indexOf('  phase 2: internal Git'), out);
      assert.match(out, /mirror-ready +the internal Git service \(app gitea\)/);
      assert.match(out, /wait: Application gitea Synced and Healthy/);
      assert.match(out, /wait: Secret gitea\/fleet-push exists/);
      assert.match(out, new RegExp(`mirror-push +git push revision main to ${PUSH} \\(read in the cluster as ${MIRROR_URL}\\), branch main`));
      assert.match(out, /apply: Application\/openshift-gitops\/root-applications/);
      assert.match(out, /apply: Application\/openshift-gitops\/config/);
      assert.doesNotMatch(out, /apply: Application\/openshift-gitops\/metrics/);
      assert.match(out, new RegExp(`wait: Application config Synced from ${MIRROR_URL}`));
    } finally {
      removeTree(dir);
    }
  });

  test('json: phase-2 stages carry phase 2; a mirror app the cluster lacks is a note', async () => {
    const files = mirrorFleetFiles(PUSH);
    files['fleet.yaml'] = files['fleet.yaml']!.replace('app: gitea', 'app: forgejo');
    const dir = writeTree(files);
    try {
      const r = await cli(['plan', '--repo', dir, '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const plan = JSON.parse(r.stdout) as { clusters: Array<{ stages: Array<{ name: string; phase?: number; notes: string[] }> }> };
      const two = plan.clusters[0]!.stages.filter((s) => s.phase === 2);
      assert.deepEqual(two.map((s) => s.name), ['mirror-ready', 'mirror-push', 'mirror-switch', 'mirror-synced']);
      assert.match(two[0]!.notes.join('\n'), /gitops.mirror.app "forgejo" is not an app of cluster hub/);
      assert.ok(plan.clusters[0]!.stages.filter((s) => s.phase === undefined).length > 0);
    } finally {
      removeTree(dir);
    }
  });
});
