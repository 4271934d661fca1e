// The HTML report (`fleetplan diff -o html`) as text: escaping of everything a repository
// controls, stable and distinct section ids, a section and a table row for every cluster, Secret
// values kept out, no external reference, a Content-Security-Policy that matches the page's own
// style and script, and the same bytes for the same diff. test/diff/html-browser.test.ts opens it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { clusterAnchor, diffHtml, escapeHtml } from '../../src/diff/index.js';
import { HOSTILE, SECRET_VALUES, richDiff } from './html-fixture.js';

const sha = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

test('html: hostile names, values, notes and messages are escaped, never markup', () => {
  const page = diffHtml(richDiff());
  assert.ok(!page.includes('<img'), 'no img element');
  assert.equal(page.match(/<script/g)?.length, 1, 'only the page\'s own script');
  assert.ok(!page.includes(HOSTILE), 'the hostile text appears only escaped');
  const escaped = escapeHtml(HOSTILE);
  assert.ok(escaped.startsWith('&quot;&gt;&lt;img src=x onerror=&quot;'));
  for (const where of [`fleetplan diff: lab${escaped}</h1>`, `<h3 id="${clusterAnchor(`evil${HOSTILE}`)}-title">evil${escaped}</h3>`, `Note: note ${escaped}`, `needs ${escaped}`, `<code>${escapeHtml(JSON.stringify(HOSTILE))}</code>`]) {
    assert.ok(page.includes(where), `escaped: ${where}`);
  }
});

test('html: escapeHtml escapes the five characters that matter in text and quoted attributes', () => {
  assert.equal(escapeHtml(`a&b<c>d"e'f`), 'a&amp;b&lt;c&gt;d&quot;e&#39;f');
  assert.equal(escapeHtml('&amp;'), '&amp;amp;', 'an entity in the input is shown, not decoded');
});

test('html: cluster anchors are stable, distinct and safe in a fragment and a selector', () => {
  const cases: [string, string][] = [
    ['hub', 'cluster-hub'],
    ['edge-1', 'cluster-edge-1'],
    ['eu.west_1', 'cluster-eu_2e_west_5f_1'],
    ['eu_2e_west', 'cluster-eu_5f_2e_5f_west'],
    ['a b', 'cluster-a_20_b'],
    ['ü', 'cluster-_fc_'],
    ['<x>', 'cluster-_3c_x_3e_'],
  ];
  for (const [name, id] of cases) assert.equal(clusterAnchor(name), id, name);
  const ids = cases.map(([n]) => clusterAnchor(n));
  assert.equal(new Set(ids).size, ids.length, 'distinct names give distinct ids');
  for (const id of ids) assert.match(id, /^cluster-[A-Za-z0-9_-]+$/);
});

test('html: every cluster has one section with its id, and a table row linking to it', () => {
  const d = richDiff();
  const page = diffHtml(d);
  for (const c of d.clusters) {
    const id = clusterAnchor(c.name);
    assert.equal(page.split(`<section class="cluster s-${c.status}" id="${id}"`).length, 2, `one section for ${c.name}`);
    assert.equal(page.split(`<a href="#${id}">`).length, 2, `one link to ${c.name}`);
  }
  assert.equal(page.match(/<details>/g)?.length, d.clusters.length, 'one collapsible block a cluster, closed');
  assert.match(page, /<h2 id="findings-title">Findings: 1 introduced, 1 fixed<\/h2>/);
  assert.match(page, /hint: name an app of the cluster/);
  assert.match(page, /<span class="status">pinned: no change until promoted<\/span><span class="counts">0 added, 1 changed, 0 removed, 0 leaf objects<\/span>/);
  assert.match(page, /This change, once promoted: 0 added, 1 changed, 0 removed, 1 order change\./);
  assert.match(page, /<p class="note">Note: revision abc123 is not in the local repository: git fetch it<\/p>/);
  assert.match(page, /<li>monitoring: wave 5 → 20<\/li>/);
});

test('html: field changes are table rows, leaf diffs one line a span with + and - classed', () => {
  const page = diffHtml(richDiff());
  assert.match(page, /<tr><th scope="row"><code>spec\.syncPolicy<\/code><\/th><td><span class="muted">\(none\)<\/span><\/td><td><code>\{&quot;automated&quot;:\{\}\}<\/code><\/td><\/tr>/);
  assert.match(page, /<span class="del">- {2}level: info<\/span>\n<span class="add">\+ {2}level: debug<\/span>\n/);
  assert.match(page, /<pre class="diff"><span class="head">--- a\/operator\/ConfigMap\/operator-settings<\/span>\n/);
});

test('html: Secret values stay redacted, as in the other reports', () => {
  const page = diffHtml(richDiff());
  for (const v of SECRET_VALUES) assert.ok(!page.includes(v), `no ${v}`);
  assert.match(page, /&lt;redacted: changed&gt;/);
});

test('html: self-contained: no URL the browser would fetch, and a CSP naming exactly its own style and script', () => {
  const page = diffHtml(richDiff());
  const tags = page.match(/<[a-zA-Z][^>]*>/g) ?? [];
  assert.deepEqual(tags.filter((t) => /\s(src|srcset|action|formaction|poster|data|background|on[a-z]+)=/i.test(t)), [], 'no attribute that loads a resource or runs code');
  assert.deepEqual([...new Set(tags.map((t) => t.match(/^<([a-zA-Z0-9]+)/)![1]!.toLowerCase()))].filter((n) => ['img', 'link', 'iframe', 'object', 'embed', 'base', 'form', 'video', 'audio'].includes(n)), []);
  assert.ok(!/<link\b|@import|url\(/i.test(page), 'no stylesheet link, import or url()');
  const style = page.match(/<style>([\s\S]*?)<\/style>/)![1]!;
  const script = page.match(/<script>([\s\S]*?)<\/script>/)![1]!;
  const csp = page.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)![1]!;
  assert.equal(csp, `default-src 'none'; style-src ${sha(style)}; script-src ${sha(script)}; img-src 'none'; base-uri 'none'; form-action 'none'`);
});

test('html: the same diff gives the same bytes; no time, no temporary path', () => {
  const a = diffHtml(richDiff());
  assert.equal(diffHtml(richDiff()), a);
  assert.ok(!/\b20\d\d-\d\d-\d\d/.test(a) && !a.includes('/tmp/'));
  assert.ok(a.startsWith('<!DOCTYPE html>\n<html lang="en">\n') && a.endsWith('</html>\n'));
});

test('html: a fleet without clusters or findings still has its landmarks and says so', () => {
  const page = diffHtml({ fleet: 'empty', layout: 'native', from: { revision: 'HEAD', commit: 'a'.repeat(40) }, to: { revision: 'working tree', commit: null }, leaves: false, clusters: [], findings: { introduced: [], fixed: [] } });
  for (const landmark of ['<header>', '<main>', '<footer>']) assert.ok(page.includes(landmark), landmark);
  assert.match(page, /0 of 0 clusters with something to review/);
  assert.match(page, /The change introduces and fixes no finding\./);
  assert.ok(!page.includes('Leaf objects'), 'no leaf column without --leaves');
});
