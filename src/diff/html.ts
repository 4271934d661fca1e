/**
 * The diff as one self-contained HTML page for reviewers (`fleetplan diff -o html`, ADR 0242):
 * inline CSS, no external asset, no request of any kind (a Content-Security-Policy in the page
 * forbids them), readable without JavaScript. A summary table of every cluster × added / changed /
 * removed links to the cluster's section (`id="cluster-<name>"`, stable: the name with characters
 * outside [A-Za-z0-9-] written as `_<hex>_`); each section is a closed `<details>`; field changes
 * are tables, leaf diffs `<pre>` blocks; then the findings delta. One short inline script (allowed
 * by its hash) opens a section when a link or the address jumps to it.
 *
 * Every text that comes from the repository or the user (fleet, cluster, app and object names,
 * values, file paths, diffs, messages) is escaped; nothing is inserted as markup. Secret values
 * are redacted by the diff stage before they reach any report. Deterministic: no time, no
 * temporary path, the same bytes for the same diff.
 */
import { createHash } from 'node:crypto';
import type { Finding } from '../model/finding.js';
import { showValue } from './fields.js';
import { countsText, findingText, orderLine, quiet, ref, revisionLabel, summary } from './format.js';
import type { ChangeCounts, ChangeKind, ClusterDiff, FieldChange, FleetDiff, LeafDiff, ObjectDiff } from './types.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element's content or a quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * The id of a cluster's section: `cluster-` and the name, each character outside [A-Za-z0-9-]
 * written as `_<hex code point>_` (so `eu.west_1` → `cluster-eu_2e_west_5f_1`): stable across
 * runs, distinct for distinct names, and safe in a URL fragment and a CSS selector.
 */
export function clusterAnchor(name: string): string {
  let out = 'cluster-';
  for (const ch of name) out += /^[A-Za-z0-9-]$/.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`;
  return out;
}

const STATUS_TEXT: Record<ClusterDiff['status'], string> = {
  added: 'added',
  removed: 'removed',
  changed: 'changed',
  unchanged: 'unchanged',
  pinned: 'pinned: no change until promoted',
  unreadable: 'unreadable',
};

const MARK: Record<ChangeKind, string> = { added: '+', removed: '-', changed: '~' };

/** Colours meet WCAG AA (4.5:1) for text on its background in both schemes; the browser test measures them. */
const CSS = `:root{color-scheme:light dark;--fg:#1f2328;--muted:#57606a;--bg:#ffffff;--panel:#f6f8fa;--line:#d0d7de;--link:#0550ae;--add-fg:#116329;--add-bg:#dafbe1;--del-fg:#a40e26;--del-bg:#ffebe9;--chg-fg:#7d4e00;--chg-bg:#fff8c5;--hunk:#0550ae}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#161b22;--line:#3d444d;--link:#79c0ff;--add-fg:#7ee787;--add-bg:#12261e;--del-fg:#ffa198;--del-bg:#2d1517;--chg-fg:#e3b341;--chg-bg:#272115;--hunk:#79c0ff}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:80rem;padding:1rem 1.5rem 3rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
a:focus-visible,summary:focus-visible{outline:3px solid var(--link);outline-offset:2px}
h1{font-size:1.6rem;margin:.5rem 0}
h2{font-size:1.3rem;margin:2rem 0 .75rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
h3{display:inline;font-size:1.1rem;margin:0}
h4{font-size:1rem;margin:1rem 0 .5rem}
h5{font-size:.95rem;margin:.75rem 0 .25rem;font-weight:600}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.875rem}
.muted,.file{color:var(--muted)}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:0 1rem;margin:.5rem 0}
.meta dt{font-weight:600}
.meta dd{margin:0}
table{border-collapse:collapse;margin:.5rem 0}
th,td{border:1px solid var(--line);padding:.25rem .6rem;text-align:left;vertical-align:top}
thead th{background:var(--panel)}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.fields td,.fields th{overflow-wrap:anywhere}
.cluster{border:1px solid var(--line);border-radius:6px;margin:.5rem 0}
.cluster>details>summary{cursor:pointer;padding:.5rem .75rem;background:var(--panel);border-radius:6px}
.cluster>details[open]>summary{border-bottom:1px solid var(--line);border-radius:6px 6px 0 0}
.cluster .body{padding:.25rem .75rem .75rem}
.status{display:inline-block;margin-left:.5rem;padding:0 .5rem;border-radius:1rem;font-size:.85rem;border:1px solid var(--line)}
.s-added .status,li.added .mark,.introduced .mark{color:var(--add-fg);background:var(--add-bg)}
.s-removed .status,li.removed .mark,.fixed .mark{color:var(--del-fg);background:var(--del-bg)}
.s-changed .status,.s-unreadable .status,.s-pinned .status,li.changed .mark{color:var(--chg-fg);background:var(--chg-bg)}
.counts{margin-left:.5rem;color:var(--muted);font-size:.9rem}
.mark{display:inline-block;min-width:1.4em;text-align:center;font-family:ui-monospace,monospace;font-weight:700;border-radius:3px}
ul.objects,ul.order,ul.findings{list-style:none;padding-left:0}
ul.objects>li,ul.findings>li{margin:.4rem 0}
.note{padding:.25rem .5rem;border-left:4px solid var(--chg-fg);background:var(--chg-bg);color:var(--fg)}
pre.diff{margin:.25rem 0;padding:.5rem 0;overflow-x:auto;background:var(--panel);border:1px solid var(--line);border-radius:6px}
pre.diff>span{display:inline-block;min-width:100%;padding:0 .75rem}
pre.diff>.add{color:var(--add-fg);background:var(--add-bg)}
pre.diff>.del{color:var(--del-fg);background:var(--del-bg)}
pre.diff>.hunk{color:var(--hunk)}
pre.diff>.head{color:var(--muted)}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{margin-top:3rem;color:var(--muted);font-size:.85rem}`;

/** Opens the section a link or the address jumps to (without it, the reader opens it by hand). */
const SCRIPT = `function openTarget(){var id=decodeURIComponent(location.hash.slice(1));var t=id&&document.getElementById(id);var d=t&&t.querySelector('details');if(d)d.open=true}addEventListener('hashchange',openTarget);openTarget();`;

const sha256 = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** Nothing but the page's own style and script: no request leaves the file, injected markup could not run or load anything. */
const CSP = `default-src 'none'; style-src ${sha256(CSS)}; script-src ${sha256(SCRIPT)}; img-src 'none'; base-uri 'none'; form-action 'none'`;

const e = escapeHtml;

function countsOf(c: ClusterDiff): ChangeCounts {
  return c.status === 'pinned' && c.pending ? c.pending : c.counts;
}

function fieldRow(f: FieldChange): string {
  const cell = (has: boolean, v: unknown) => (has ? `<code>${e(showValue(v))}</code>` : '<span class="muted">(none)</span>');
  return `<tr><th scope="row"><code>${e(f.path)}</code></th><td>${cell('from' in f, f.from)}</td><td>${cell('to' in f, f.to)}</td></tr>`;
}

function mark(change: ChangeKind): string {
  return `<span class="mark" aria-hidden="true">${MARK[change]}</span><span class="vh">${change}: </span>`;
}

function objectItem(o: ObjectDiff): string {
  const head = `${mark(o.change)} ${e(ref(o))} <span class="file">[${e(o.file)}]</span>`;
  if (!o.fields.length) return `<li class="${o.change}">${head}</li>`;
  const rows = o.fields.map(fieldRow).join('\n');
  return `<li class="${o.change}">${head}
<table class="fields"><thead><tr><th scope="col">Field</th><th scope="col">From</th><th scope="col">To</th></tr></thead>
<tbody>
${rows}
</tbody></table></li>`;
}

/** A unified diff, one `<span>` a line, classed by its first character; the newlines stay text between them, so that copying the block gives the diff. */
export function diffBlock(diff: string): string {
  const lines = diff.replace(/\n$/, '').split('\n');
  const spans = lines.map((l) => {
    const cls = l.startsWith('+++') || l.startsWith('---') ? 'head' : l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'ctx';
    return `<span class="${cls}">${e(l)}</span>`;
  });
  return `<pre class="diff">${spans.join('\n')}\n</pre>`;
}

function leafItem(l: LeafDiff): string {
  return `<li class="${l.change}"><h5>${mark(l.change)} ${e(l.app)}: ${e(ref(l))}</h5>
${diffBlock(l.diff)}</li>`;
}

function revisionText(c: ClusterDiff): string {
  const { from, to } = c.revision;
  return from !== null && to !== null && from !== to ? `${from} → ${to}` : (to ?? from ?? '');
}

function clusterSection(c: ClusterDiff, leaves: boolean): string {
  const id = clusterAnchor(c.name);
  const counts = countsOf(c);
  const body: string[] = [];
  const meta: string[] = [];
  if (c.sector !== null) meta.push(`<dt>Sector</dt><dd>${e(c.sector)}</dd>`);
  const rev = revisionText(c);
  if (rev !== '') meta.push(`<dt>Revision</dt><dd><code>${e(rev)}</code></dd>`);
  if (meta.length) body.push(`<dl class="meta">${meta.join('')}</dl>`);
  for (const n of c.notes) body.push(`<p class="note">Note: ${e(n)}</p>`);
  if (c.status === 'pinned' && c.pending) {
    const order = c.pendingOrder ? `, ${c.pendingOrder} order change${c.pendingOrder === 1 ? '' : 's'}` : '';
    body.push(`<p>No change until the sector is promoted. This change, once promoted: ${countsText(c.pending)}${order}.</p>`);
  }
  if (c.objects.length) body.push(`<h4>Objects</h4>\n<ul class="objects">\n${c.objects.map(objectItem).join('\n')}\n</ul>`);
  if (c.order.length) body.push(`<h4>Order</h4>\n<ul class="order">\n${c.order.map((o) => `<li>${e(orderLine(o))}</li>`).join('\n')}\n</ul>`);
  if (c.leaves?.length) body.push(`<h4>Leaf manifests</h4>\n<ul class="objects leaves">\n${c.leaves.map(leafItem).join('\n')}\n</ul>`);
  if (quiet(c) && c.status !== 'pinned') body.push('<p>No change.</p>');
  const leafCount = leaves ? `, ${c.leaves?.length ?? 0} leaf object${c.leaves?.length === 1 ? '' : 's'}` : '';
  return `<section class="cluster s-${c.status}" id="${id}" aria-labelledby="${id}-title">
<details>
<summary><h3 id="${id}-title">${e(c.name)}</h3><span class="status">${STATUS_TEXT[c.status]}</span><span class="counts">${countsText(counts)}${leafCount}</span></summary>
<div class="body">
${body.join('\n')}
</div>
</details>
</section>`;
}

function summaryTable(d: FleetDiff): string {
  const rows = d.clusters.map((c) => {
    const n = countsOf(c);
    const leaves = d.leaves ? `<td class="n">${c.leaves?.length ?? 0}</td>` : '';
    return `<tr class="s-${c.status}"><th scope="row"><a href="#${clusterAnchor(c.name)}">${e(c.name)}</a></th><td><span class="status">${STATUS_TEXT[c.status]}</span></td><td class="n">${n.added}</td><td class="n">${n.changed}</td><td class="n">${n.removed}</td>${leaves}</tr>`;
  });
  return `<table class="summary">
<caption class="vh">Clusters and the objects the change adds, changes and removes on each (pinned clusters: once promoted)</caption>
<thead><tr><th scope="col">Cluster</th><th scope="col">Status</th><th scope="col">Added</th><th scope="col">Changed</th><th scope="col">Removed</th>${d.leaves ? '<th scope="col">Leaf objects</th>' : ''}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

function findingItem(f: Finding, kind: 'introduced' | 'fixed'): string {
  const hint = f.hint ? `<br><span class="muted">hint: ${e(f.hint)}</span>` : '';
  return `<li class="${kind}"><span class="mark" aria-hidden="true">${kind === 'introduced' ? '+' : '-'}</span><span class="vh">${kind}: </span> ${e(findingText(f))}${hint}</li>`;
}

function findingsSection(d: FleetDiff): string {
  const { introduced, fixed } = d.findings;
  const items = [...introduced.map((f) => findingItem(f, 'introduced')), ...fixed.map((f) => findingItem(f, 'fixed'))];
  const list = items.length ? `\n<ul class="findings">\n${items.join('\n')}\n</ul>` : '\n<p>The change introduces and fixes no finding.</p>';
  return `<section id="findings" aria-labelledby="findings-title">
<h2 id="findings-title">Findings: ${introduced.length} introduced, ${fixed.length} fixed</h2>${list}
</section>`;
}

/** The whole page. */
export function diffHtml(d: FleetDiff): string {
  const revs = `<code>${e(revisionLabel(d.from))}</code> → <code>${e(revisionLabel(d.to))}</code>${d.leaves ? ' (with leaf manifests)' : ''}`;
  const changed = d.clusters.filter((c) => !quiet(c)).length;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="generator" content="fleetplan diff">
<title>fleetplan diff: ${e(d.fleet)} (${e(revisionLabel(d.from))} → ${e(revisionLabel(d.to))})</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>fleetplan diff: ${e(d.fleet)}</h1>
<p>${revs}</p>
<p>${e(summary(d))}; layout ${e(d.layout)}.</p>
</header>
<main>
<section id="summary" aria-labelledby="summary-title">
<h2 id="summary-title">Clusters</h2>
<p>${changed} of ${d.clusters.length} cluster${d.clusters.length === 1 ? '' : 's'} with something to review. Each name leads to its section.</p>
${summaryTable(d)}
</section>
<section id="clusters" aria-labelledby="clusters-title">
<h2 id="clusters-title">Per cluster</h2>
${d.clusters.map((c) => clusterSection(c, d.leaves)).join('\n')}
</section>
${findingsSection(d)}
</main>
<footer><p>Written by <code>fleetplan diff -o html</code>. Secret values are redacted.</p></footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
