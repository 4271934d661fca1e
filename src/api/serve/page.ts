/**
 * The dashboard page of `fleetplan serve`: HTML, style and script, served from memory (no
 * external assets; the CSP allows only these). The script builds the matrix as one table from
 * the compact model (one innerHTML, every repository string through esc()), the graph as SVG
 * elements with textContent, and listens to /events for reloads and bootstrap progress.
 * Written without template literals so that it can live in one (docs/adr/0250-fleetplan-serve.md).
 */

export const INDEX_HTML = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fleetplan</title>
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
  <h1>fleetplan <span id="fleet-name"></span></h1>
  <nav aria-label="Views">
    <a href="/#/matrix" data-view="matrix">Matrix</a>
    <a href="/#/findings" data-view="findings">Findings <span id="finding-count"></span></a>
    <a href="/#/sectors" data-view="sectors">Sectors</a>
    <a href="/#/diff" data-view="diff">Diff</a>
    <a href="/#/bootstrap" data-view="bootstrap">Bootstrap</a>
  </nav>
</header>
<div id="status" role="status" aria-live="polite"></div>
<main id="main" tabindex="-1"><p>Loading the fleet…</p></main>
</body>
</html>
`;

export const APP_CSS = String.raw`
:root { color-scheme: light; --fg: #1b1f24; --muted: #4a525c; --bg: #fff; --line: #c9d1d9; --accent: #0b5cad; --err: #a4161a; --warn: #7a4b00; --head: #f3f5f7; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 2rem; align-items: baseline; padding: .5rem 1rem; border-bottom: 1px solid var(--line); background: var(--head); flex-wrap: wrap; }
h1 { font-size: 1.2rem; margin: 0; }
h2 { font-size: 1.1rem; }
nav a { margin-right: 1rem; color: var(--accent); }
nav a[aria-current="page"] { font-weight: bold; color: var(--fg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #e36209; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: .5rem; background: #fff; padding: .25rem .5rem; z-index: 10; }
main { padding: .5rem 1rem 2rem; }
#status { padding: 0 1rem; min-height: 1.4em; color: var(--muted); }
form.filters { display: flex; gap: .75rem; flex-wrap: wrap; align-items: end; margin: .5rem 0; }
form.filters label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
input, select, button { font: inherit; padding: .2rem .35rem; border: 1px solid #6e7781; border-radius: 3px; background: #fff; color: var(--fg); }
button { cursor: pointer; }
.scroll { overflow: auto; max-height: 75vh; border: 1px solid var(--line); }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: 2px 6px; text-align: left; vertical-align: top; }
thead th { position: sticky; top: 0; background: var(--head); z-index: 1; }
table.matrix th.app { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: normal; white-space: nowrap; padding: 6px 2px; }
table.matrix td { text-align: center; min-width: 2.2em; font-variant-numeric: tabular-nums; }
table.matrix tbody th { position: sticky; left: 0; background: #fff; white-space: nowrap; font-weight: normal; }
table.matrix td.none { background: #f6f8fa; }
table.matrix tbody tr[data-i] { height: 24px; }
table.matrix tbody th, table.matrix tbody td { line-height: 19px; white-space: nowrap; }
table.matrix tr.spacer td { border: 0; padding: 0; }
.sev-error { color: var(--err); font-weight: bold; }
.sev-warning { color: var(--warn); font-weight: bold; }
.sev-info { color: var(--muted); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 1rem; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
svg.graph { border: 1px solid var(--line); background: #fff; }
svg.graph rect.stage { fill: #e8f0fe; stroke: #0b5cad; }
svg.graph rect.app { fill: #f3f5f7; stroke: #4a525c; }
svg.graph text { font: 12px system-ui, sans-serif; fill: #1b1f24; }
svg.graph text.col { font-weight: bold; }
svg.graph path.seq { stroke: #8c959f; fill: none; stroke-dasharray: 4 3; }
svg.graph path.needs { stroke: #a4161a; fill: none; marker-end: url(#arrow); }
svg.graph marker path { fill: #a4161a; }
pre.file, pre.diff { font: 12px/1.5 ui-monospace, monospace; }
ol.file { font: 12px/1.5 ui-monospace, monospace; padding-left: 4em; border: 1px solid var(--line); }
ol.file li { white-space: pre-wrap; }
ol.file li.target { background: #fff3bf; }
.bar { display: inline-block; width: 12em; }
progress { width: 12em; }
.muted { color: var(--muted); }
`;

export const APP_JS = String.raw`
'use strict';
var state = { model: null, filters: { role: '', group: '', sector: '', region: '', label: '', q: '' }, progress: null };
var main = document.getElementById('main');
var statusEl = document.getElementById('status');

function esc(s) {
  return String(s).replace(/[&<>"']/g, function (c) {
    return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
  });
}
function announce(text) { statusEl.textContent = text; }
function getJson(url) {
  return fetch(url, { headers: { accept: 'application/json' } }).then(function (r) {
    return r.json().then(function (body) { return { ok: r.ok, status: r.status, body: body }; });
  });
}
function fileHref(file, line) {
  return '/file?path=' + encodeURIComponent(file) + (line ? '&line=' + line : '');
}
function where(f) {
  if (!f.file) return '';
  return f.file + (f.line ? ':' + f.line + (f.column ? ':' + f.column : '') : '');
}
function el(tag, attrs, text) {
  var e = document.createElement(tag);
  if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function route() {
  if (location.pathname === '/file') return { view: 'file' };
  var h = location.hash.replace(/^#\/?/, '');
  var parts = h.split('/');
  if (parts[0] === 'cluster' && parts.length > 1) return { view: 'cluster', name: decodeURIComponent(parts.slice(1).join('/')) };
  if (['findings', 'sectors', 'diff', 'bootstrap'].indexOf(parts[0]) >= 0) return { view: parts[0] };
  return { view: 'matrix' };
}

function loadModel() {
  return getJson('/api/model').then(function (r) {
    state.model = r.body;
    document.getElementById('fleet-name').textContent = r.body.fleet.name ? '— ' + r.body.fleet.name + ' (' + r.body.fleet.layout + ')' : '';
    var errs = r.body.findings.filter(function (f) { return f.severity === 'error'; }).length;
    document.getElementById('finding-count').textContent = '(' + r.body.findings.length + (errs ? ', ' + errs + ' error' + (errs === 1 ? '' : 's') : '') + ')';
  });
}

function render() {
  var r = route();
  var links = document.querySelectorAll('nav a');
  for (var i = 0; i < links.length; i++) {
    if (links[i].getAttribute('data-view') === r.view) links[i].setAttribute('aria-current', 'page');
    else links[i].removeAttribute('aria-current');
  }
  var done;
  if (r.view === 'cluster') done = renderCluster(r.name);
  else if (r.view === 'findings') done = renderFindings();
  else if (r.view === 'sectors') done = renderSectors();
  else if (r.view === 'diff') done = renderDiff();
  else if (r.view === 'bootstrap') done = renderBootstrap();
  else if (r.view === 'file') done = renderFile();
  else done = renderMatrix();
  return Promise.resolve(done).then(function () {
    document.body.setAttribute('data-version', String(state.model.version));
    document.body.setAttribute('data-view', r.view);
  });
}

/* ---- matrix ---- */
function options(values, current) {
  var out = '<option value="">(any)</option>';
  values.forEach(function (v) { out += '<option' + (v === current ? ' selected' : '') + ' value="' + esc(v) + '">' + esc(v) + '</option>'; });
  return out;
}
function uniq(list) { return Array.from(new Set(list)).sort(); }

function renderMatrix() {
  var m = state.model, f = state.filters;
  if (!m.loaded) { renderUnreadable(); return; }
  var roles = uniq(m.clusters.map(function (c) { return c.role; }));
  var groups = uniq([].concat.apply([], m.clusters.map(function (c) { return c.groups; })));
  var sectors = uniq(m.clusters.map(function (c) { return c.sector; }).filter(Boolean));
  var regions = uniq(m.clusters.map(function (c) { return c.region; }).filter(Boolean));
  var h = [];
  h.push('<h2 id="matrix-title">Clusters × apps <span class="muted">(sync wave in each cell)</span></h2>');
  h.push('<form class="filters" role="search" aria-label="Filter clusters">');
  h.push('<label for="f-role">Role<select id="f-role" data-filter="role">' + options(roles, f.role) + '</select></label>');
  h.push('<label for="f-group">Group<select id="f-group" data-filter="group">' + options(groups, f.group) + '</select></label>');
  h.push('<label for="f-sector">Sector<select id="f-sector" data-filter="sector">' + options(sectors, f.sector) + '</select></label>');
  h.push('<label for="f-region">Region<select id="f-region" data-filter="region">' + options(regions, f.region) + '</select></label>');
  h.push('<label for="f-label">Label (key=value)<input id="f-label" data-filter="label" autocomplete="off" value="' + esc(f.label) + '"></label>');
  h.push('<label for="f-q">Search clusters and apps<input id="f-q" type="search" data-filter="q" autocomplete="off" value="' + esc(f.q) + '"></label>');
  h.push('</form><p id="matrix-count" class="muted"></p>');
  h.push('<div class="scroll" id="matrix-scroll" tabindex="0" role="region" aria-labelledby="matrix-title"><table class="matrix" id="matrix"><thead><tr aria-rowindex="1"><th scope="col">Cluster</th>');
  for (var a = 0; a < m.apps.length; a++) h.push('<th scope="col" class="app">' + esc(m.apps[a]) + '</th>');
  h.push('</tr></thead><tbody></tbody></table></div>');
  main.innerHTML = h.join('');
  main.querySelector('form').addEventListener('input', onFilter);
  main.querySelector('form').addEventListener('submit', function (e) { e.preventDefault(); });
  var scroller = document.getElementById('matrix-scroll'), pending = false;
  scroller.addEventListener('scroll', function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; drawRows(); });
  });
  applyFilters();
}

function onFilter(e) {
  var key = e.target.getAttribute('data-filter');
  if (!key) return;
  state.filters[key] = e.target.value;
  var scroller = document.getElementById('matrix-scroll');
  if (scroller) scroller.scrollTop = 0;
  applyFilters();
}

function clusterMatches(c, i) {
  var f = state.filters, m = state.model;
  if (f.role && c.role !== f.role) return false;
  if (f.group && c.groups.indexOf(f.group) < 0) return false;
  if (f.sector && c.sector !== f.sector) return false;
  if (f.region && c.region !== f.region) return false;
  if (f.label) {
    var eq = f.label.indexOf('='), key = (eq < 0 ? f.label : f.label.slice(0, eq)).trim(), val = eq < 0 ? null : f.label.slice(eq + 1).trim();
    if (key && !Object.prototype.hasOwnProperty.call(c.labels, key)) return false;
    if (key && val !== null && c.labels[key] !== val) return false;
  }
  if (f.q) {
    var q = f.q.toLowerCase();
    if (c.name.toLowerCase().indexOf(q) < 0) {
      var cells = m.cells[i], hit = false;
      for (var k = 0; k < cells.length && !hit; k += 2) hit = m.apps[cells[k]].toLowerCase().indexOf(q) >= 0;
      if (!hit) return false;
    }
  }
  return true;
}

/* The clusters the filters keep, in order; only the rows in view (and a margin) are in the DOM. */
var matched = [];
var ROWH = 24, OVERSCAN = 20;
function applyFilters() {
  var m = state.model;
  matched = [];
  for (var i = 0; i < m.clusters.length; i++) if (clusterMatches(m.clusters[i], i)) matched.push(i);
  var text = 'Showing ' + matched.length + ' of ' + m.clusters.length + ' clusters, ' + m.apps.length + ' apps';
  document.getElementById('matrix-count').textContent = text;
  document.getElementById('matrix').setAttribute('aria-rowcount', String(matched.length + 1));
  document.body.setAttribute('data-shown', String(matched.length));
  drawRows();
}

function rowHtml(c, pos) {
  var m = state.model, n = m.apps.length, cl = m.clusters[c], row = new Array(n), cells = m.cells[c];
  for (var k = 0; k < cells.length; k += 2) row[cells[k]] = cells[k + 1];
  var tr = '<tr data-i="' + c + '" aria-rowindex="' + (pos + 2) + '"><th scope="row"><a href="#/cluster/' + esc(encodeURIComponent(cl.name)) + '">' + esc(cl.name) + '</a>' + (cl.errors ? ' <span class="sev-error" title="' + cl.errors + ' errors">!' + cl.errors + '</span>' : '') + '</th>';
  for (var j = 0; j < n; j++) tr += row[j] === undefined ? '<td class="none"></td>' : '<td>' + row[j] + '</td>';
  return tr + '</tr>';
}

function drawRows() {
  var scroller = document.getElementById('matrix-scroll');
  if (!scroller) return;
  var tbody = scroller.querySelector('tbody');
  var head = scroller.querySelector('thead').offsetHeight;
  var top = Math.max(0, scroller.scrollTop - head);
  var inView = Math.ceil(scroller.clientHeight / ROWH);
  var first = Math.max(0, Math.min(Math.floor(top / ROWH), matched.length - inView) - OVERSCAN);
  var last = Math.min(matched.length, first + inView + 2 * OVERSCAN);
  if (tbody.getAttribute('data-range') === first + ':' + last + ':' + matched.length + ':' + state.model.version) return;
  var active = document.activeElement, focused = active && tbody.contains(active) ? active.closest('tr').getAttribute('data-i') : null;
  var cols = state.model.apps.length + 1;
  var h = [];
  if (first > 0) h.push('<tr class="spacer" aria-hidden="true"><td colspan="' + cols + '" data-h="' + first * ROWH + '"></td></tr>');
  for (var p = first; p < last; p++) h.push(rowHtml(matched[p], p));
  if (last < matched.length) h.push('<tr class="spacer" aria-hidden="true"><td colspan="' + cols + '" data-h="' + (matched.length - last) * ROWH + '"></td></tr>');
  tbody.innerHTML = h.join('');
  // Heights through the CSSOM: the CSP allows no style attributes.
  var spacers = tbody.querySelectorAll('td[data-h]');
  for (var x = 0; x < spacers.length; x++) spacers[x].style.height = spacers[x].getAttribute('data-h') + 'px';
  tbody.setAttribute('data-range', first + ':' + last + ':' + matched.length + ':' + state.model.version);
  if (focused !== null) { var again = tbody.querySelector('tr[data-i="' + focused + '"] a'); if (again) again.focus({ preventScroll: true }); }
}

function renderUnreadable() {
  main.innerHTML = '<h2>The fleet could not be read</h2><p>See <a href="#/findings">the findings</a>.</p>';
  renderFindingList(state.model.findings, main);
}

/* ---- cluster ---- */
function renderCluster(name) {
  return getJson('/api/cluster?name=' + encodeURIComponent(name)).then(function (r) {
    main.innerHTML = '';
    if (!r.ok) { main.appendChild(el('h2', null, 'Cluster')); main.appendChild(el('p', null, r.body.error)); return; }
    var p = r.body.plan, c = r.body.cluster || {};
    main.appendChild(el('h2', { id: 'cluster-title' }, 'Cluster ' + p.name));
    var dl = el('dl', { class: 'facts' });
    [['Role', p.role], ['Hub', p.hub || '—'], ['Region', p.region || '—'], ['Sector', p.sector || '—'], ['Revision', p.revision], ['Groups', (c.groups || []).join(', ') || '—'], ['Labels', Object.keys(c.labels || {}).sort().map(function (k) { return k + '=' + c.labels[k]; }).join(', ') || '—']].forEach(function (kv) {
      dl.appendChild(el('dt', null, kv[0])); dl.appendChild(el('dd', null, kv[1]));
    });
    if (c.file) { dl.appendChild(el('dt', null, 'File')); var dd = el('dd'); dd.appendChild(el('a', { href: fileHref(c.file) }, c.file)); dl.appendChild(dd); }
    main.appendChild(dl);
    main.appendChild(el('h3', { id: 'graph-title' }, 'Plan: bootstrap stages, then sync waves'));
    main.appendChild(graph(p));
    main.appendChild(el('h3', null, 'Applications'));
    var t = el('table', { class: 'apps' });
    t.innerHTML = '<caption class="muted">In sync order</caption><thead><tr><th scope="col">App</th><th scope="col">Wave</th><th scope="col">Needs</th><th scope="col">Source</th><th scope="col">Destination</th><th scope="col">Defined in</th></tr></thead>';
    var tb = el('tbody');
    p.apps.forEach(function (a) {
      var tr = el('tr');
      tr.appendChild(el('th', { scope: 'row' }, a.name));
      tr.appendChild(el('td', null, String(a.wave)));
      tr.appendChild(el('td', null, a.needs.join(', ')));
      var s = a.source;
      tr.appendChild(el('td', null, s.repoURL + (s.path ? ' ' + s.path : '') + (s.chart ? ' chart ' + s.chart : '') + ' @ ' + s.targetRevision));
      tr.appendChild(el('td', null, a.destination.server + (a.destination.namespace ? ' / ' + a.destination.namespace : '')));
      var td = el('td'); td.appendChild(el('a', { href: fileHref(a.from) }, a.from)); tr.appendChild(td);
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    main.appendChild(t);
    if (r.body.findings.length) { main.appendChild(el('h3', null, 'Findings')); renderFindingList(r.body.findings, main); }
  });
}

var SVGNS = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, text) {
  var e = document.createElementNS(SVGNS, tag);
  if (attrs) for (var k in attrs) e.setAttribute(k, String(attrs[k]));
  if (text !== undefined) e.textContent = text;
  return e;
}
function clip(s, n) { return s.length > n ? s.slice(0, n - 1) + '…' : s; }

function graph(p) {
  var COLW = 190, BOXW = 170, ROWH = 30, BOXH = 22, TOP = 30, LEFT = 10;
  var cols = [];
  // The bootstrap stages, in order, down the first column; then one column per sync wave.
  var stages = (p.stages || []).map(function (s) { return { id: 'stage:' + s.name, label: s.name, wave: s.wave, detail: s.description + (s.wait.length ? '; waits for ' + s.wait.length : '') }; });
  if (stages.length) cols.push({ title: 'bootstrap stages', kind: 'stage', items: stages });
  p.waves.forEach(function (w) { cols.push({ title: 'wave ' + w.wave, kind: 'app', items: w.apps.map(function (a) { return { id: 'app:' + a, label: a, detail: 'wave ' + w.wave }; }) }); });
  var pos = {}, maxRows = 1;
  cols.forEach(function (col, ci) {
    maxRows = Math.max(maxRows, col.items.length);
    col.items.forEach(function (it, ri) { pos[it.id] = { x: LEFT + ci * COLW, y: TOP + ri * ROWH }; });
  });
  var width = LEFT * 2 + Math.max(1, cols.length) * COLW, height = TOP + maxRows * ROWH + 10;
  var root = svg('svg', { class: 'graph', width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-labelledby': 'graph-title graph-desc' });
  var nApps = p.apps.length, nNeeds = p.apps.reduce(function (s, a) { return s + a.needs.length; }, 0);
  root.appendChild(svg('desc', { id: 'graph-desc' }, (p.stages || []).length + ' bootstrap stages, then ' + p.waves.length + ' waves of ' + nApps + ' apps with ' + nNeeds + ' needs edges; the table below lists the same apps.'));
  var defs = svg('defs');
  var marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
  marker.appendChild(svg('path', { d: 'M0,0 L10,5 L0,10 z' }));
  defs.appendChild(marker);
  root.appendChild(defs);
  cols.forEach(function (col, ci) {
    var x = LEFT + ci * COLW;
    root.appendChild(svg('text', { x: x, y: 16, class: 'col' }, col.title));
    if (col.kind === 'stage') {
      for (var si = 1; si < col.items.length; si++) {
        var up = pos[col.items[si - 1].id];
        root.appendChild(svg('path', { class: 'seq', d: 'M' + (up.x + BOXW / 2) + ',' + (up.y + BOXH) + ' L' + (up.x + BOXW / 2) + ',' + (up.y + ROWH) }));
      }
    }
    if (ci > 0) {
      var prevItems = cols[ci - 1].items;
      // From the stages: the last one that applies (root-application), not the waits for each wave.
      var from = prevItems[0];
      if (cols[ci - 1].kind === 'stage') prevItems.forEach(function (it) { if (it.wave === undefined) from = it; });
      var a = pos[from.id];
      root.appendChild(svg('path', { class: 'seq', d: 'M' + (a.x + BOXW) + ',' + (a.y + BOXH / 2) + ' L' + x + ',' + (TOP + BOXH / 2) }));
    }
  });
  var edges = svg('g', { class: 'edges' });
  p.apps.forEach(function (app) {
    app.needs.forEach(function (need) {
      var from = pos['app:' + need], to = pos['app:' + app.name];
      if (!from || !to) return;
      var x1 = from.x + BOXW, y1 = from.y + BOXH / 2, x2 = to.x, y2 = to.y + BOXH / 2, mx = (x1 + x2) / 2;
      var e = svg('path', { class: 'needs', d: 'M' + x1 + ',' + y1 + ' C' + mx + ',' + y1 + ' ' + mx + ',' + y2 + ' ' + x2 + ',' + y2, 'data-from': need, 'data-to': app.name });
      e.appendChild(svg('title', null, app.name + ' needs ' + need));
      edges.appendChild(e);
    });
  });
  cols.forEach(function (col) {
    col.items.forEach(function (it) {
      var q = pos[it.id];
      var g = svg('g', { class: 'node', 'data-id': it.id });
      g.appendChild(svg('title', null, it.label + ' (' + it.detail + ')'));
      g.appendChild(svg('rect', { class: col.kind, x: q.x, y: q.y, width: BOXW, height: BOXH, rx: 4 }));
      g.appendChild(svg('text', { x: q.x + 6, y: q.y + 15 }, clip(it.label, 24)));
      root.appendChild(g);
    });
  });
  root.appendChild(edges);
  var wrap = el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'Plan graph' });
  wrap.appendChild(root);
  return wrap;
}

/* ---- findings ---- */
function renderFindingList(findings, into) {
  if (!findings.length) { into.appendChild(el('p', null, 'No findings.')); return; }
  var t = el('table', { class: 'findings' });
  var h = ['<thead><tr><th scope="col">Severity</th><th scope="col">Where</th><th scope="col">Code</th><th scope="col">Message</th><th scope="col">Hint</th><th scope="col">Cluster / app</th></tr></thead><tbody>'];
  findings.forEach(function (f) {
    var w = where(f);
    h.push('<tr><td class="sev-' + esc(f.severity) + '">' + esc(f.severity) + '</td><td>' + (f.file ? '<a class="loc" href="' + esc(fileHref(f.file, f.line)) + '">' + esc(w) + '</a>' + (f.path ? ' <span class="muted">' + esc(f.path) + '</span>' : '') : '') + '</td><td>' + esc(f.code) + '</td><td>' + esc(f.message) + '</td><td>' + esc(f.hint || '') + '</td><td>' + esc([f.cluster, f.app].filter(Boolean).join(' / ')) + '</td></tr>');
  });
  t.innerHTML = h.join('') + '</tbody>';
  into.appendChild(t);
}
function renderFindings() {
  var fs = state.model.findings;
  main.innerHTML = '';
  main.appendChild(el('h2', null, 'Findings (' + fs.length + ')'));
  renderFindingList(fs, main);
}

/* ---- file ---- */
function renderFile() {
  var q = new URLSearchParams(location.search), path = q.get('path') || '', line = Number(q.get('line') || 0);
  return getJson('/api/file?path=' + encodeURIComponent(path)).then(function (r) {
    main.innerHTML = '';
    main.appendChild(el('h2', { id: 'file-title' }, path + (line ? ':' + line : '')));
    var back = el('p'); back.appendChild(el('a', { href: '/#/findings' }, '← Findings')); main.appendChild(back);
    if (!r.ok) { main.appendChild(el('p', { class: 'sev-error' }, r.body.error)); return; }
    var ol = el('ol', { class: 'file', 'aria-labelledby': 'file-title' });
    var target = null;
    r.body.lines.forEach(function (text, i) {
      var li = el('li', { id: 'L' + (i + 1) }, text || ' ');
      if (i + 1 === line) { li.className = 'target'; li.setAttribute('tabindex', '-1'); li.setAttribute('aria-current', 'location'); target = li; }
      ol.appendChild(li);
    });
    main.appendChild(ol);
    if (target) { target.scrollIntoView({ block: 'center' }); target.focus(); }
  });
}

/* ---- sectors ---- */
function renderSectors() {
  var m = state.model;
  main.innerHTML = '';
  main.appendChild(el('h2', null, 'Sectors'));
  var t = el('table');
  t.innerHTML = '<thead><tr><th scope="col">Sector</th><th scope="col">Commit</th><th scope="col">Protected</th><th scope="col">Clusters that follow it</th></tr></thead>';
  var tb = el('tbody');
  m.sectors.forEach(function (s) {
    var tr = el('tr');
    tr.appendChild(el('th', { scope: 'row' }, s.name));
    tr.appendChild(el('td', null, s.revision ? s.revision : 'follows ' + m.fleet.revision));
    tr.appendChild(el('td', null, s.protected ? 'yes' : 'no'));
    var td = el('td');
    s.clusters.forEach(function (c, i) { if (i) td.appendChild(document.createTextNode(', ')); td.appendChild(el('a', { href: '#/cluster/' + encodeURIComponent(c) }, c)); });
    if (!s.clusters.length) td.textContent = '(none)';
    tr.appendChild(td);
    tb.appendChild(tr);
  });
  t.appendChild(tb);
  main.appendChild(t);
  if (!m.sectors.length) main.appendChild(el('p', null, 'This fleet has no sectors.'));
}

/* ---- diff ---- */
var lastDiff = { from: '', to: '', cluster: '', text: null, error: null };
function renderDiff() {
  var m = state.model;
  main.innerHTML = '<h2>Diff between two revisions</h2>' +
    '<form class="filters" id="diff-form"><label for="d-from">From (revision; empty: merge base)<input id="d-from" name="from" value="' + esc(lastDiff.from) + '"></label>' +
    '<label for="d-to">To (revision; empty: working tree)<input id="d-to" name="to" value="' + esc(lastDiff.to) + '"></label>' +
    '<label for="d-cluster">Cluster<select id="d-cluster" name="cluster">' + options(m.clusters.map(function (c) { return c.name; }), lastDiff.cluster) + '</select></label>' +
    '<button type="submit">Compare</button></form><div id="diff-out" aria-live="polite"></div>';
  var out = document.getElementById('diff-out');
  var show = function () {
    out.innerHTML = '';
    if (lastDiff.error) out.appendChild(el('p', { class: 'sev-error' }, lastDiff.error));
    else if (lastDiff.text !== null) out.appendChild(el('pre', { class: 'diff' }, lastDiff.text));
  };
  show();
  document.getElementById('diff-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var fd = new FormData(e.target);
    lastDiff.from = String(fd.get('from') || ''); lastDiff.to = String(fd.get('to') || ''); lastDiff.cluster = String(fd.get('cluster') || '');
    out.textContent = 'Comparing…';
    getJson('/api/diff?from=' + encodeURIComponent(lastDiff.from) + '&to=' + encodeURIComponent(lastDiff.to) + '&cluster=' + encodeURIComponent(lastDiff.cluster)).then(function (r) {
      lastDiff.error = r.ok ? null : r.body.error + (r.body.hint ? ' (' + r.body.hint + ')' : '');
      lastDiff.text = r.ok ? r.body.text : null;
      show();
    });
  });
}

/* ---- bootstrap ---- */
function renderBootstrap() {
  return getJson('/api/progress').then(function (r) { state.progress = r.body; drawProgress(); });
}
function drawProgress() {
  var p = state.progress;
  main.innerHTML = '';
  main.appendChild(el('h2', null, 'Bootstrap progress'));
  if (!p.file) {
    main.appendChild(el('p', null, 'Not following a bootstrap. Run fleetplan bootstrap -o json > FILE and fleetplan serve --progress FILE.'));
    return;
  }
  main.appendChild(el('p', { class: 'muted' }, 'Following ' + p.file + (p.unreadable ? ' (' + p.unreadable + ' lines were not bootstrap events)' : '')));
  if (!p.clusters.length) { main.appendChild(el('p', null, 'No events yet.')); return; }
  var t = el('table', { id: 'progress' });
  t.innerHTML = '<thead><tr><th scope="col">Cluster</th><th scope="col">Status</th><th scope="col">Stage</th><th scope="col">Wave</th><th scope="col">Objects ready</th><th scope="col">Elapsed</th></tr></thead>';
  var tb = el('tbody');
  p.clusters.forEach(function (c) {
    var tr = el('tr', { 'data-cluster': c.cluster });
    tr.appendChild(el('th', { scope: 'row' }, c.cluster));
    tr.appendChild(el('td', { class: c.status === 'failed' ? 'sev-error' : '' }, c.status + (c.dryRun ? ' (dry run)' : '') + (c.message ? ': ' + c.message : '')));
    tr.appendChild(el('td', null, c.stage ? c.index + '/' + c.total + ' ' + c.stage : '—'));
    tr.appendChild(el('td', null, c.wave === null ? '—' : String(c.wave)));
    var td = el('td');
    var bar = el('progress', { max: String(Math.max(1, c.objects)), value: String(c.ready), 'aria-label': c.cluster + ' objects ready' });
    td.appendChild(bar); td.appendChild(document.createTextNode(' ' + c.ready + '/' + c.objects));
    tr.appendChild(td);
    tr.appendChild(el('td', null, (c.elapsedMs / 1000).toFixed(1) + ' s'));
    tb.appendChild(tr);
  });
  t.appendChild(tb);
  main.appendChild(t);
  main.appendChild(el('h3', null, 'Recent events'));
  main.appendChild(el('pre', { class: 'diff' }, p.log.slice(-30).join('\n')));
}

/* ---- live updates ---- */
function connect() {
  var es = new EventSource('/events');
  es.addEventListener('model', function (ev) {
    var v = JSON.parse(ev.data).version;
    if (state.model && v === state.model.version) return;
    var focusId = document.activeElement && document.activeElement.id;
    var scroller = document.getElementById('matrix-scroll'), scrollTop = scroller ? scroller.scrollTop : 0;
    loadModel().then(function () {
      var r = route();
      if (r.view === 'diff' || r.view === 'bootstrap') { document.body.setAttribute('data-version', String(state.model.version)); }
      else return render();
    }).then(function () {
      var again = document.getElementById('matrix-scroll');
      if (again && scrollTop) { again.scrollTop = scrollTop; drawRows(); }
      if (focusId) { var f = document.getElementById(focusId); if (f) f.focus({ preventScroll: true }); }
      announce('The repository changed: showing version ' + state.model.version + '.');
    });
  });
  es.addEventListener('progress', function (ev) {
    state.progress = JSON.parse(ev.data);
    if (route().view === 'bootstrap') drawProgress();
  });
}

window.addEventListener('hashchange', function () { render().then(function () { main.focus({ preventScroll: true }); }); });
loadModel().then(render).then(function () {
  document.body.setAttribute('data-rendered-ms', String(Math.round(performance.now())));
  document.body.setAttribute('data-ready', 'true');
  connect();
});
`;
