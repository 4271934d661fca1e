/**
 * Opt-in: the bootstrap scenario against a real cluster. Runs only when FLEETPLAN_E2E_CONTEXT
 * names a kubeconfig context (KUBECONFIG as usual); otherwise it says why and does nothing.
 *
 *   FLEETPLAN_E2E_CONTEXT=ctx      the cluster (required)
 *   FLEETPLAN_E2E_REPO=dir         the fleet (default examples/lab)
 *   FLEETPLAN_E2E_CLUSTER=name     the cluster of the fleet (default hub)
 *   FLEETPLAN_E2E_WAIT=1           also wait for the waves (the lab's Git URL is not reachable, so
 *                                  by default the run stops after the root Application)
 *   FLEETPLAN_E2E_TIMEOUT=30m
 *
 * Steps: a dry run writes nothing; the bootstrap converges (or applies, without waiting); a
 * second run reports every object unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from '../support/fleet-fixture.js';

const env = process.env;
const context = env.FLEETPLAN_E2E_CONTEXT;

test('bootstrap against a real cluster (FLEETPLAN_E2E_CONTEXT)', { timeout: 3_600_000 }, async (t) => {
  if (!context) {
    t.diagnostic('not run: set FLEETPLAN_E2E_CONTEXT=<kubeconfig context> to bootstrap a real cluster');
    return;
  }
  const repo = env.FLEETPLAN_E2E_REPO ?? 'examples/lab';
  const cluster = env.FLEETPLAN_E2E_CLUSTER ?? 'hub';
  const args = ['bootstrap', '--repo', repo, '--cluster', cluster, '--context', context, '--timeout', env.FLEETPLAN_E2E_TIMEOUT ?? '30m', '-o', 'json'];
  if (env.FLEETPLAN_E2E_WAIT !== '1') args.push('--no-wait');
  const processEnv: Record<string, string | undefined> = { ...env };

  const dry = await cli([...args, '--dry-run'], process.cwd(), processEnv);
  assert.equal(dry.code, 0, dry.stderr);
  const dryDone = lastResult(dry.stdout);
  assert.equal(dryDone.outcome, 'dry-run');

  const first = await cli(args, process.cwd(), processEnv);
  assert.equal(first.code, 0, first.stderr);
  const second = await cli(args, process.cwd(), processEnv);
  assert.equal(second.code, 0, second.stderr);
  const changed = lastResult(second.stdout).changes.filter((c) => c.action === 'created' || c.action === 'configured');
  assert.deepEqual(changed, [], 'the second run changes nothing');
});

function lastResult(stdout: string): { outcome: string; changes: Array<{ ref: string; action: string }> } {
  const done = stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; result?: { outcome: string; changes: Array<{ ref: string; action: string }> } }).find((e) => e.type === 'done');
  assert.ok(done?.result, stdout);
  return done.result;
}
