// `fleetplan serve` in headless Chromium (ADR 0230): the lab fleet's matrix, a cluster's graph,
// the findings of a broken fleet with links into the file view, the page following a file change,
// bootstrap progress, and repository strings that try to inject script. Each test keeps a screenshot.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { artifactsDir, launchBrowser, skipWithoutBrowser } from '../support/browser.js';
import { labCopy, serve } from './support.js';

const skip = skipWithoutBrowser();
let browser: Browser;

before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** A page that records script errors and CSP violations, so a test can assert there were none. */
async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { page, errors };
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifactsDir(), `serve-${name}.png`), fullPage: false });

test('the lab fleet as a matrix of clusters × apps, with a wave in each cell and working filters', { skip }, async () => {
  const lab = labCopy();
  const server = await serve(lab.dir);
  const { page, errors } = await newPage();
  try {
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    const rows = page.locator('#matrix tbody tr[data-i]');
    assert.equal(await rows.count(), 3);
    assert.deepEqual(await page.locator('#matrix tbody th a').allTextContents(), ['hub', 'etl4', 'etl6']);
    // Every column header and row header is a header of its column or row.
    assert.equal(await page.locator('#matrix thead th[scope="col"]').count(), await page.locator('#matrix thead th').count());
    // The cell of hub × acm-operator holds its wave (5 in examples/lab/clusters/hub).
    const apps = await page.locator('#matrix thead th').allTextContents();
    const col = apps.indexOf('acm-operator');
    assert.ok(col > 0, 'acm-operator is a column');
    assert.equal(await rows.nth(0).locator('th, td').nth(col).textContent(), '5');
    // The filters have labels, and choosing role=spoke leaves the two spokes.
    await page.getByLabel('Role').selectOption('spoke');
    await page.waitForSelector('body[data-shown="2"]');
    assert.match((await page.locator('#matrix-count').textContent()) ?? '', /Showing 2 of 3 clusters/);
    await page.getByLabel('Role').selectOption('');
    // Search matches cluster names and the apps a cluster runs: the hub runs the app that provisions etl4.
    await page.getByLabel('Search clusters and apps').fill('etl4');
    await page.waitForSelector('body[data-shown="2"]');
    assert.deepEqual(await page.locator('#matrix tbody tr[data-i] th a').allTextContents(), ['hub', 'etl4']);
    await page.getByLabel('Search clusters and apps').fill('');
    await page.waitForSelector('body[data-shown="3"]');
    await shot(page, 'matrix');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
    lab.cleanup();
  }
});

test('a cluster\'s plan as a graph: bootstrap stages, waves and needs edges, with its Applications', { skip }, async () => {
  const lab = labCopy();
  const server = await serve(lab.dir);
  const { page, errors } = await newPage();
  try {
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByRole('link', { name: 'hub', exact: true }).click();
    await page.waitForSelector('body[data-view="cluster"] svg.graph');
    assert.equal(await page.locator('#cluster-title').textContent(), 'Cluster hub');
    const plan = (await (await fetch(`${server.url}api/cluster?name=hub`)).json()) as { plan: { stages: unknown[]; apps: { name: string; needs: string[] }[]; waves: unknown[] } };
    assert.equal(await page.locator('svg.graph rect.stage').count(), plan.plan.stages.length);
    assert.equal(await page.locator('svg.graph rect.app').count(), plan.plan.apps.length);
    const needs = plan.plan.apps.reduce((n, a) => n + a.needs.length, 0);
    assert.ok(needs > 0);
    assert.equal(await page.locator('svg.graph path.needs').count(), needs);
    assert.equal(await page.locator('svg.graph path.needs[data-from="acm-operator"][data-to="acm-instance"]').count(), 1);
    assert.equal(await page.locator('svg.graph text.col').filter({ hasText: /^wave 5$/ }).count(), 1);
    // The Applications with their sources, one row per app.
    assert.equal(await page.locator('table.apps tbody tr').count(), plan.plan.apps.length);
    assert.match((await page.locator('table.apps tbody tr', { hasText: 'acm-operator' }).first().textContent()) ?? '', /components\/acm-operator @ main/);
    await shot(page, 'cluster-graph');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
    lab.cleanup();
  }
});

test('the findings of a broken fleet, each linked to its file and line in the file view', { skip }, async () => {
  const lab = labCopy();
  const group = join(lab.dir, 'groups/all/group.yaml');
  const text = readFileSync(group, 'utf8');
  writeFileSync(group, text.replace('        - cert-manager-operator', '        - no-such-app'));
  const line = text.split('\n').indexOf('        - cert-manager-operator') + 1;
  const server = await serve(lab.dir);
  const { page, errors } = await newPage();
  try {
    await page.goto(`${server.url}#/findings`);
    await page.waitForSelector('body[data-view="findings"] table.findings');
    const row = page.locator('table.findings tbody tr', { hasText: 'unknown-need' });
    assert.equal(await row.count(), 1);
    assert.match((await row.textContent()) ?? '', /needs "no-such-app"/);
    const link = row.locator('a.loc');
    assert.match((await link.textContent()) ?? '', new RegExp(`^groups/all/group\\.yaml:${line}:`));
    await shot(page, 'findings');
    await link.click();
    await page.waitForSelector('body[data-view="file"] li.target');
    assert.equal(new URL(page.url()).pathname, '/file');
    assert.equal(await page.locator('ol.file li.target').getAttribute('id'), `L${line}`);
    assert.equal((await page.locator('ol.file li.target').textContent())?.trim(), '- no-such-app');
    // The file view shows what is in the repository and nothing else.
    assert.equal(await page.locator('ol.file li').count(), text.split('\n').length);
    await shot(page, 'file-view');
    await page.goto(`${server.url}file?path=${encodeURIComponent('../../../etc/passwd')}`);
    await page.waitForSelector('body[data-view="file"] .sev-error');
    assert.match((await page.locator('.sev-error').textContent()) ?? '', /inside the repository only/);
    assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  } finally {
    await page.close();
    await server.close();
    lab.cleanup();
  }
});

test('the page follows the repository: a new cluster file appears in the matrix without a reload', { skip }, async () => {
  const lab = labCopy();
  const server = await serve(lab.dir);
  const { page, errors } = await newPage();
  try {
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByLabel('Role').selectOption('spoke');
    await page.waitForSelector('body[data-shown="2"]');
    // A marker on the window survives only if the page is not reloaded.
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
    const etl6 = readFileSync(join(lab.dir, 'clusters/etl6/cluster.yaml'), 'utf8');
    mkdirSync(join(lab.dir, 'clusters/etl7'));
    writeFileSync(join(lab.dir, 'clusters/etl7/cluster.yaml'), etl6.replaceAll('etl6', 'etl7'));
    // Under the role=spoke filter: the two spokes, then the new one.
    await page.locator('#matrix tbody tr[data-i]').nth(2).waitFor({ state: 'attached', timeout: 20000 });
    assert.equal(await page.locator('body').getAttribute('data-shown'), '3');
    assert.ok(Number(await page.locator('body').getAttribute('data-version')) >= 2);
    assert.match((await page.locator('#status').textContent()) ?? '', /The repository changed/);
    // The filter the user typed is kept, and applies to the new cluster too.
    assert.equal(await page.getByLabel('Role').inputValue(), 'spoke');
    assert.deepEqual(await page.locator('#matrix tbody tr[data-i] th a').allTextContents(), ['etl4', 'etl6', 'etl7']);
    assert.equal(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker), 42);
    await shot(page, 'live-update');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
    lab.cleanup();
  }
});

test('names and labels from the repository are shown as text, never run as script', { skip }, async () => {
  const lab = labCopy();
  // A label value is any string; an app name that is not a DNS label is a schema error whose message repeats it.
  const file = join(lab.dir, 'clusters/etl6/cluster.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('metadata:\n  name: etl6\n', 'metadata:\n  name: etl6\n  labels:\n    team: \'<img src=x onerror="window.__pwned=1">\'\n'));
  const other = join(lab.dir, 'clusters/etl4/cluster.yaml');
  let text = readFileSync(other, 'utf8');
  text = text.replace('  apps:\n', '  apps:\n    \'<script>window.__pwned=2</script>\':\n      path: components/kube-ops-view\n      namespace: x\n    \'"><svg onload=window.__pwned=3>\':\n      path: components/kube-ops-view\n      namespace: y\n');
  writeFileSync(other, text);
  const server = await serve(lab.dir);
  const { page } = await newPage();
  try {
    await page.goto(`${server.url}#/cluster/etl6`);
    await page.waitForSelector('body[data-view="cluster"] dl.facts');
    assert.match((await page.locator('dl.facts').textContent()) ?? '', /team=<img src=x onerror="window.__pwned=1">/);
    await page.goto(`${server.url}#/findings`);
    await page.waitForSelector('body[data-view="findings"] table.findings');
    assert.match((await page.locator('table.findings').textContent()) ?? '', /<script>window.__pwned=2<\/script>/);
    await page.goto(`${server.url}#/matrix`);
    await page.waitForSelector('body[data-view="matrix"] #matrix');
    await page.getByLabel('Label (key=value)').fill('team=<img src=x onerror="window.__pwned=1">');
    await page.waitForSelector('body[data-shown="1"]');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), undefined);
    assert.equal(await page.locator('main img, main script, main svg:not(.graph)').count(), 0);
    await shot(page, 'hostile-names');
  } finally {
    await page.close();
    await server.close();
    lab.cleanup();
  }
});

test('a bootstrap\'s progress, written by `bootstrap -o json` to a file, streams to the page', { skip }, async () => {
  const lab = labCopy();
  const progress = join(lab.dir, '..', 'progress.ndjson');
  writeFileSync(progress, '');
  const server = await serve(lab.dir, { progressFile: progress });
  const { page, errors } = await newPage();
  const event = (e: Record<string, unknown>) => appendFileSync(progress, JSON.stringify(e) + '\n');
  try {
    await page.goto(`${server.url}#/bootstrap`);
    await page.waitForSelector('body[data-view="bootstrap"]');
    event({ type: 'start', cluster: 'hub', context: 'hub-admin', server: 'https://api.hub:6443', stages: ['namespaces', 'gitops-operator', 'argocd', 'root'], dryRun: false, elapsedMs: 10 });
    event({ type: 'stage', cluster: 'hub', stage: 'gitops-operator', index: 1, total: 4, objects: 1, waits: 5, elapsedMs: 200 });
    event({ type: 'progress', cluster: 'hub', stage: 'gitops-operator', ready: 2, total: 5, elapsedMs: 900 });
    const row = page.locator('#progress tr[data-cluster="hub"]');
    await row.filter({ hasText: '2/5' }).waitFor({ timeout: 10000 });
    assert.match((await row.textContent()) ?? '', /running.*2\/4 gitops-operator/);
    event({ type: 'stage', cluster: 'hub', stage: 'root', index: 3, total: 4, objects: 1, waits: 40, wave: 20, elapsedMs: 5000 });
    event({ type: 'progress', cluster: 'hub', stage: 'root', ready: 17, total: 40, wave: 20, elapsedMs: 6000 });
    await row.filter({ hasText: '17/40' }).waitFor({ timeout: 10000 });
    assert.match((await row.textContent()) ?? '', /4\/4 root\s*20/);
    await shot(page, 'bootstrap-progress');
    event({ type: 'failed', cluster: 'hub', message: 'timed out waiting for wave 20', elapsedMs: 9000 });
    await row.filter({ hasText: 'failed: timed out waiting for wave 20' }).waitFor({ timeout: 10000 });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
    lab.cleanup();
  }
});

test('a large matrix keeps only the rows in view in the page, and scrolling and filtering reach every cluster', { skip }, async () => {
  const { writeSyntheticFleet } = await import('../../bench/synthetic.js');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-serve-large-'));
  writeSyntheticFleet(dir, { clusters: 300, appsPerCluster: 12 });
  const server = await serve(dir);
  const { page, errors } = await newPage();
  try {
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.locator('body').getAttribute('data-shown'), '300');
    const rows = page.locator('#matrix tbody tr[data-i]');
    const inDom = await rows.count();
    assert.ok(inDom > 10 && inDom < 150, `${inDom} rows in the page`);
    assert.equal(await page.locator('#matrix').getAttribute('aria-rowcount'), '301');
    const model = (await (await fetch(`${server.url}api/model`)).json()) as { clusters: { name: string }[] };
    const lastName = model.clusters[299]!.name;
    // Scrolled to the end, the last cluster's row is there, with its position for assistive technology.
    await page.locator('#matrix-scroll').evaluate((e) => ((e as unknown as { scrollTop: number; scrollHeight: number }).scrollTop = (e as unknown as { scrollHeight: number }).scrollHeight));
    const last = page.locator('#matrix tbody tr[data-i="299"]');
    await last.waitFor({ state: 'attached' });
    assert.equal(await last.locator('th a').textContent(), lastName);
    assert.equal(await last.getAttribute('aria-rowindex'), '301');
    await shot(page, 'matrix-large-scrolled');
    // A change to the repository redraws the matrix where the reader was, not at the top.
    const { appendFileSync: append } = await import('node:fs');
    append(join(dir, 'fleet.yaml'), '# touched\n');
    await page.waitForSelector('body[data-version="2"]', { timeout: 30000 });
    await page.locator('#matrix tbody tr[data-i="299"]').waitFor({ state: 'attached' });
    await page.getByLabel('Search clusters and apps').fill(lastName);
    await page.waitForSelector('body[data-shown="1"]');
    assert.deepEqual(await page.locator('#matrix tbody tr[data-i] th a').allTextContents(), [lastName]);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sectors with their commits and clusters, the diff between two revisions, and keyboard use', { skip }, async () => {
  const lab = labCopy();
  const { execFileSync } = await import('node:child_process');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: lab.dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'lab');
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: lab.dir, encoding: 'utf8' }).trim();
  const fleet = join(lab.dir, 'fleet.yaml');
  writeFileSync(fleet, readFileSync(fleet, 'utf8').replace('    - name: lab\n', `    - name: lab\n      revision: ${head}\n`));
  const group = join(lab.dir, 'groups/all/group.yaml');
  writeFileSync(group, readFileSync(group, 'utf8').replace('      namespace: metallb-system\n      wave: 20', '      namespace: metallb-system\n      wave: 22'));
  const server = await serve(lab.dir);
  const { page, errors } = await newPage();
  try {
    await page.goto(`${server.url}#/sectors`);
    await page.waitForSelector('body[data-view="sectors"] table');
    const row = page.locator('main table tbody tr', { hasText: 'lab' });
    assert.match((await row.textContent()) ?? '', new RegExp(`^lab${head}no`));
    assert.deepEqual(await row.locator('a').allTextContents(), ['etl4', 'etl6', 'hub']);
    await shot(page, 'sectors');

    await page.goto(`${server.url}#/diff`);
    await page.waitForSelector('body[data-view="diff"] #diff-form');
    await page.getByLabel('From (revision; empty: merge base)').fill('HEAD');
    await page.getByLabel('Cluster').selectOption('etl4');
    await page.getByRole('button', { name: 'Compare' }).click();
    const out = page.locator('#diff-out pre.diff');
    await out.waitFor({ timeout: 60000 });
    const text = (await out.textContent()) ?? '';
    assert.match(text, /etl4/);
    assert.match(text, /metallb-operator/);
    assert.doesNotMatch(text, /\betl6\b/);
    await shot(page, 'diff');

    // Keyboard only: from the skip link to the filters, and into a cluster with Enter.
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent), 'Skip to content');
    await page.getByLabel('Search clusters and apps').focus();
    await page.keyboard.type('etl6');
    await page.waitForSelector('body[data-shown="2"]');
    await page.locator('#matrix tbody tr[data-i] th a', { hasText: 'etl6' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('body[data-view="cluster"] #cluster-title');
    assert.equal(await page.locator('#cluster-title').textContent(), 'Cluster etl6');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
    lab.cleanup();
  }
});
