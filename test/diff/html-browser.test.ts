// The HTML report in headless Chromium (ADR 0230), as a reviewer opens it from disk: every
// cluster's section is there, each summary link leads to its section and opens it, a section
// expands on a click, the hostile names of the fixture stay text, no request leaves the file, the
// page's own style and script pass its Content-Security-Policy (a blocked one is a console error),
// and text meets WCAG AA contrast in the light and dark schemes. Screenshots go to test-artifacts/.
// The tests run in the page through plain functions: the project's TypeScript has no DOM library,
// so the page's objects are reached through `globalThis` as `any`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { clusterAnchor, diffHtml } from '../../src/diff/index.js';
import type { FleetDiff } from '../../src/diff/index.js';
import { artifactsDir, launchBrowser, skipWithoutBrowser } from '../support/browser.js';
import { richDiff } from './html-fixture.js';

/** Writes the page to a temporary file, opens it, and collects requests and console complaints. */
async function withReport(html: string, run: (page: Page, url: string, seen: { requests: string[]; problems: string[] }) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-html-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  const url = pathToFileURL(file).href;
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const seen = { requests: [] as string[], problems: [] as string[] };
    page.on('request', (r) => seen.requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') seen.problems.push(m.text());
    });
    page.on('pageerror', (err) => seen.problems.push(String(err)));
    page.on('dialog', (d) => {
      seen.problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(url);
    await run(page, url, seen);
  } finally {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const isOpen = (page: Page, id: string) => page.locator(`#${id} > details`).evaluate((d: any) => d.open as boolean);

test('html report in Chromium: every cluster has its section, the links lead there and open it, one expands; screenshot', { skip: skipWithoutBrowser() }, async () => {
  const d: FleetDiff = richDiff();
  await withReport(diffHtml(d), async (page, url, seen) => {
    const ids = d.clusters.map((c) => clusterAnchor(c.name));
    assert.deepEqual(await page.locator('section.cluster').evaluateAll((els: any[]) => els.map((e) => e.id as string)), ids, 'one section a cluster, in the fleet\'s order');
    assert.deepEqual(await page.locator('section.cluster h3').allTextContents(), d.clusters.map((c) => c.name), 'the names as text, hostile ones too');
    assert.deepEqual(await page.getByRole('heading', { level: 3 }).allTextContents(), d.clusters.map((c) => c.name), 'each section has a level-3 heading');

    // Every link of the summary table names an element that exists: the cluster's section.
    const links = await page.locator('table.summary a').evaluateAll((as: any[]) =>
      as.map((a) => {
        const target = (globalThis as any).document.getElementById(decodeURIComponent(a.hash.slice(1)));
        return { text: a.textContent as string, target: target ? `${target.tagName} ${target.id}` : null };
      }),
    );
    assert.deepEqual(links, d.clusters.map((c) => ({ text: c.name, target: `SECTION ${clusterAnchor(c.name)}` })));
    assert.equal(await page.getByRole('main').count(), 1);
    assert.equal(await page.getByRole('table', { name: /^Clusters and the objects/ }).count(), 1, 'the table has an accessible name');

    // Closed at first; a click on the summary expands a section and shows its content.
    for (const id of ids) assert.equal(await isOpen(page, id), false, `${id} starts closed`);
    const hub = page.locator('#cluster-hub');
    const leafHeading = hub.getByRole('heading', { name: 'Leaf manifests' });
    assert.equal(await leafHeading.isVisible(), false);
    await hub.locator('summary').click();
    assert.equal(await isOpen(page, 'cluster-hub'), true);
    assert.equal(await leafHeading.isVisible(), true);
    assert.equal(await hub.getByRole('rowheader', { name: 'spec.syncPolicy' }).isVisible(), true, 'a field change is a table row');
    const diffText = await hub.locator('pre.diff').first().evaluate((p: any) => p.innerText as string);
    assert.equal(diffText.replace(/\n$/, ''), d.clusters[0]!.leaves![0]!.diff.replace(/\n$/, ''), 'the diff block reads (and copies) as the unified diff');
    await page.screenshot({ path: join(artifactsDir(), 'diff-report-expanded.png'), fullPage: true });

    // A link of the table jumps to a closed section and opens it (the page's one script).
    const evil = d.clusters.find((c) => c.name.startsWith('evil'))!;
    await page.locator('table.summary').getByRole('link', { name: evil.name, exact: true }).click();
    assert.equal(new URL(page.url()).hash, `#${clusterAnchor(evil.name)}`);
    assert.equal(await isOpen(page, clusterAnchor(evil.name)), true, 'the section a link leads to is open');

    // The hostile text stayed text: no element, no script ran, no dialog.
    assert.equal(await page.evaluate(() => (globalThis as any).__pwned), undefined);
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('script').count(), 1);
    // The inline style applies (the CSP lets it through), nothing is fetched, nothing complains.
    assert.equal(await page.locator('body').evaluate((b: any) => (globalThis as any).getComputedStyle(b).maxWidth as string), '1280px');
    assert.deepEqual(seen.requests, [url], 'no request but the file itself');
    assert.deepEqual(seen.problems, []);
  });
});

test('html report in Chromium: text contrast meets WCAG AA (4.5:1) in the light and dark schemes', { skip: skipWithoutBrowser() }, async () => {
  await withReport(diffHtml(richDiff()), async (page) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => {
        for (const d of (globalThis as any).document.querySelectorAll('details')) d.open = true;
      });
      const low = await page.evaluate(() => {
        const g = globalThis as any;
        const rgb = (s: string) => (s.match(/[\d.]+/g) ?? []).map(Number);
        const lum = ([r, gr, b]: number[]) => {
          const f = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
          return 0.2126 * f(r!) + 0.7152 * f(gr!) + 0.0722 * f(b!);
        };
        const background = (el: any): number[] => {
          for (let e = el; e; e = e.parentElement) {
            const c = rgb(g.getComputedStyle(e).backgroundColor);
            if (c.length === 3 || (c.length === 4 && c[3]! > 0)) return c.slice(0, 3);
          }
          return rgb(g.getComputedStyle(g.document.documentElement).backgroundColor).slice(0, 3);
        };
        const out: string[] = [];
        for (const el of g.document.body.querySelectorAll('*')) {
          const own = [...el.childNodes].some((n: any) => n.nodeType === 3 && n.textContent.trim() !== '');
          if (!own || el.closest('.vh')) continue;
          const fg = lum(rgb(g.getComputedStyle(el).color));
          const bg = lum(background(el));
          const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
          if (ratio < 4.5) out.push(`${el.tagName}.${el.className}: ${ratio.toFixed(2)} "${el.textContent.slice(0, 30)}"`);
        }
        return [...new Set(out)];
      });
      assert.deepEqual(low, [], `${scheme}: text below 4.5:1`);
      await page.screenshot({ path: join(artifactsDir(), `diff-report-${scheme}.png`) });
    }
  });
});

test('html report in Chromium: the golden report of the leaves case opens with its cluster section and its Secret redacted', { skip: skipWithoutBrowser() }, async () => {
  // The CLI's own output (test/diff/diff-cli.test.ts keeps it equal to `fleetplan diff -o html`).
  const golden = resolve('test/golden/diff/leaves');
  const json = JSON.parse(readFileSync(join(golden, 'diff.json'), 'utf8')) as { clusters: { name: string }[] };
  await withReport(readFileSync(join(golden, 'report.html'), 'utf8'), async (page, url, seen) => {
    assert.deepEqual(await page.locator('section.cluster').evaluateAll((els: any[]) => els.map((e) => e.id as string)), json.clusters.map((c) => clusterAnchor(c.name)));
    await page.locator('section.cluster summary').first().click();
    const text = await page.locator('main').innerText();
    assert.match(text, /<redacted: changed>/);
    assert.ok(!/first-secret|second-secret/.test(text));
    await page.screenshot({ path: join(artifactsDir(), 'diff-report-leaves.png'), fullPage: true });
    assert.deepEqual(seen.requests, [url]);
    assert.deepEqual(seen.problems, []);
  });
});
