/** Progress of `fleetplan bootstrap`: plain lines, the live terminal view, JSON events. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BootstrapEvent } from '../../src/apply/events.js';
import { jsonReporter, lineReporter, liveReporter } from '../../src/cli/bootstrap-progress.js';
import { formatResult } from '../../src/cli/actions/bootstrap.js';
import type { BootstrapResult } from '../../src/apply/change-set.js';
import { ChangeSet } from '../../src/apply/change-set.js';

const result: BootstrapResult = {
  cluster: 'hub',
  outcome: 'converged',
  changes: new ChangeSet([
    { ref: 'Namespace/openshift-gitops', stage: 'namespaces', action: 'created' },
    { ref: 'Subscription/openshift-operators/openshift-gitops-operator', stage: 'gitops-operator', action: 'unchanged' },
  ]),
  timings: [{ stage: 'namespaces', durationMs: 120 }, { stage: 'wave 5', wave: 5, durationMs: 61_500 }],
  durationMs: 61_620,
};

const events: BootstrapEvent[] = [
  { type: 'start', cluster: 'hub', context: 'lab', server: 'https://api.lab:6443', stages: ['namespaces', 'wave 5'], dryRun: false },
  { type: 'stage', cluster: 'hub', stage: 'namespaces', index: 0, total: 2, objects: 1, waits: 1 },
  { type: 'change', cluster: 'hub', stage: 'namespaces', ref: 'Namespace/openshift-gitops', action: 'created' },
  { type: 'progress', cluster: 'hub', stage: 'namespaces', ready: 0, total: 1 },
  { type: 'retry', cluster: 'hub', what: 'watch Namespace', attempt: 1, delayMs: 250, error: 'HTTP 500' },
  { type: 'ready', cluster: 'hub', stage: 'namespaces', ref: 'Namespace/openshift-gitops', message: 'exists' },
  { type: 'stage-done', cluster: 'hub', stage: 'namespaces', durationMs: 120 },
  { type: 'stage', cluster: 'hub', stage: 'wave 5', index: 1, total: 2, objects: 0, waits: 3, wave: 5 },
  { type: 'progress', cluster: 'hub', stage: 'wave 5', ready: 2, total: 3, wave: 5 },
  { type: 'done', cluster: 'hub', result },
];

const ESC = String.fromCharCode(27);

function sink(): { text: string; write(s: string): void } {
  return { text: '', write(s: string) { this.text += s; } };
}

test('plain lines: one per event that matters, with the elapsed time', () => {
  const out = sink();
  const r = lineReporter(out, () => 0);
  for (const e of events) r.event(e);
  assert.equal(out.text, [
    '[   0ms] hub: bootstrapping on context lab (https://api.lab:6443), 2 stages',
    '[   0ms] hub: stage 1/2 namespaces: 1 object to apply, 1 to wait for',
    '[   0ms] hub:   created    Namespace/openshift-gitops',
    '[   0ms] hub:   namespaces: 0/1 ready',
    '[   0ms] hub:   retry 1 in 250ms: watch Namespace: HTTP 500',
    '[   0ms] hub:   ready      Namespace/openshift-gitops: exists',
    '[   0ms] hub: stage namespaces done in 120ms',
    '[   0ms] hub: stage 2/2 wave 5: 3 to wait for',
    '[   0ms] hub:   wave 5: 2/3 ready',
    '[   0ms] hub: converged in 1m02s: 1 created, 0 configured, 1 unchanged',
    '',
  ].join('\n'));
});

test('the live view redraws a status line per cluster: stage, wave, ready/total, elapsed', () => {
  const out = sink();
  let ticks = 0;
  let stopped = false;
  const r = liveReporter(out, () => 1500, () => {
    ticks++;
    return () => (stopped = true);
  });
  for (const e of events.slice(0, -1)) r.event(e);
  assert.ok(out.text.endsWith(`${ESC}[2Khub: stage 2/2 · wave 5 · 2/3 ready · 0ms\n`), out.text);
  assert.match(out.text, /hub: created {4}Namespace\/openshift-gitops\n/);
  assert.ok(out.text.includes(`${ESC}[1A${ESC}[J`), 'the status line is cleared before it is redrawn');
  r.event(events.at(-1)!);
  assert.match(out.text, /hub: converged in 1m02s: 1 created, 0 configured, 1 unchanged\n$/);
  assert.equal(ticks, 1);
  assert.ok(stopped, 'the redraw timer stops when every cluster is done');
});

test('-o json: one JSON object per event and line', () => {
  const out = sink();
  const r = jsonReporter(out, () => 0);
  for (const e of events) r.event(e);
  const lines = out.text.trimEnd().split('\n');
  assert.equal(lines.length, events.length);
  assert.deepEqual(lines.map((l) => (JSON.parse(l) as { type: string }).type), events.map((e) => e.type));
});

test('the change set: one line per object, then the duration of each stage', () => {
  assert.deepEqual(formatResult(result), [
    'hub: converged in 1m02s: 1 created, 0 configured, 1 unchanged',
    '  created    Namespace/openshift-gitops',
    '  unchanged  Subscription/openshift-operators/openshift-gitops-operator',
    '  durations',
    '    namespaces  120ms',
    '    wave 5      1m02s',
  ]);
});
