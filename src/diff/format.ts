/**
 * The diff as text for a terminal, JSON for machines (docs/diff-json.md) and Markdown for a
 * pull-request comment. All three are deterministic: clusters in the fleet's order, objects by
 * file and name, findings by file and code; no time, no temporary paths.
 */
import type { Finding } from '../model/finding.js';
import { jsonOf, orderedJson, toSortedJson } from '../yaml/serialize.js';
import { showField, showValue } from './fields.js';
import type { ChangeCounts, ClusterDiff, FleetDiff, ObjectDiff, OrderChange } from './types.js';

export type DiffFormat = 'text' | 'json' | 'markdown';

/** GitHub's limit on the body of a pull-request comment. */
export const MARKDOWN_LIMIT = 65_536;

/** A cluster with nothing to show: unchanged, or pinned with nothing pending. */
export function quiet(c: ClusterDiff): boolean {
  return c.status === 'unchanged' || (c.status === 'pinned' && total(c.pending) + (c.pendingOrder ?? 0) === 0);
}

function quietName(c: ClusterDiff): string {
  return c.status === 'pinned' ? `${c.name} (pinned)` : c.name;
}

/** Whether the diff shows any change at all (`--exit-code`): a cluster that is not unchanged, pending changes of a pinned one, or a findings delta. */
export function hasChanges(d: FleetDiff): boolean {
  return (
    d.clusters.some((c) => !quiet(c)) ||
    d.findings.introduced.length > 0 ||
    d.findings.fixed.length > 0
  );
}

function total(c: ChangeCounts | undefined): number {
  return c ? c.added + c.changed + c.removed : 0;
}

function short(commit: string | null): string {
  return commit === null ? '' : commit.slice(0, 12);
}

/** `origin/main (0123456789ab)`, `working tree`. */
export function revisionLabel(r: FleetDiff['from']): string {
  return r.commit === null ? r.revision : r.revision === r.commit ? short(r.commit) : `${r.revision} (${short(r.commit)})`;
}

export function ref(o: { kind: string; namespace?: string; name: string }): string {
  return o.namespace ? `${o.kind} ${o.namespace}/${o.name}` : `${o.kind} ${o.name}`;
}

const MARK = { added: '+', removed: '-', changed: '~' } as const;

const list = (v: unknown): string => (Array.isArray(v) ? `[${v.map((x) => showValue(x)).join(', ')}]` : showValue(v));

export function orderLine(o: OrderChange): string {
  if (o.what === 'wave') return `${o.app}: wave ${showValue(o.from)} → ${showValue(o.to)}`;
  if (o.what === 'needs') return `${o.app}: needs ${list(o.from)} → ${list(o.to)}`;
  return `bootstrap steps: ${(o.from as string[]).join(', ') || '(none)'} → ${(o.to as string[]).join(', ') || '(none)'}`;
}

export function countsText(c: ChangeCounts): string {
  return `${c.added} added, ${c.changed} changed, ${c.removed} removed`;
}

function statusLine(c: ClusterDiff): string {
  const rev = c.revision.from !== null && c.revision.to !== null && c.revision.from !== c.revision.to ? `${c.revision.from} → ${c.revision.to}` : (c.revision.to ?? c.revision.from ?? '');
  const where = [c.sector !== null ? `sector ${c.sector}` : '', rev !== '' ? `revision ${rev}` : ''].filter(Boolean).join(', ');
  let s = `${c.name}  ${c.status}`;
  if (c.status === 'pinned') s += `: no change until promoted`;
  if (where) s += `  (${where})`;
  return s;
}

function objectLines(o: ObjectDiff): string[] {
  const lines = [`${MARK[o.change]} ${ref(o)}  [${o.file}]`];
  for (const f of o.fields) lines.push(`    ${showField(f)}`);
  return lines;
}

/** The lines of one cluster's section (without its heading), indented by two. */
function clusterBody(c: ClusterDiff): string[] {
  const lines: string[] = [];
  for (const n of c.notes) lines.push(`note: ${n}`);
  if (c.status === 'pinned' && c.pending) {
    const order = c.pendingOrder ? `, ${c.pendingOrder} order change${c.pendingOrder === 1 ? '' : 's'}` : '';
    lines.push(`this change, once promoted: ${countsText(c.pending)}${order}`);
  }
  for (const o of c.objects) lines.push(...objectLines(o));
  if (c.order.length) {
    lines.push('order');
    for (const o of c.order) lines.push(`  ${orderLine(o)}`);
  }
  if (c.leaves?.length) {
    lines.push('leaves');
    for (const l of c.leaves) {
      lines.push(`  ${MARK[l.change]} ${l.app}: ${ref(l)}`);
      for (const d of l.diff.replace(/\n$/, '').split('\n')) lines.push(`    ${d}`);
    }
  }
  return lines;
}

export function findingText(f: Finding): string {
  const where = f.file ? `${f.file}${f.line !== undefined ? `:${f.line}` : ''}${f.path ? ` ${f.path}` : ''}: ` : '';
  return `${f.severity}: ${where}${f.message} [${f.code}]`;
}

export function summary(d: FleetDiff): string {
  const n = (s: ClusterDiff['status']) => d.clusters.filter((c) => c.status === s).length;
  const parts = [`${d.clusters.length} cluster${d.clusters.length === 1 ? '' : 's'}`, `${n('changed')} changed`, `${n('added')} added`, `${n('removed')} removed`];
  if (n('pinned')) parts.push(`${n('pinned')} pinned`);
  if (n('unreadable')) parts.push(`${n('unreadable')} unreadable`);
  return parts.join(', ');
}

/** A text painter: identity when there is no colour. */
export interface DiffPalette {
  added(s: string): string;
  removed(s: string): string;
  heading(s: string): string;
  dim(s: string): string;
}

export const NO_COLOR: DiffPalette = { added: (s) => s, removed: (s) => s, heading: (s) => s, dim: (s) => s };

export function diffText(d: FleetDiff, p: DiffPalette = NO_COLOR): string {
  const out: string[] = [];
  out.push(p.heading(`fleet ${d.fleet}: ${revisionLabel(d.from)} → ${revisionLabel(d.to)}${d.leaves ? ' (with leaves)' : ''}`));
  out.push(summary(d));
  const paint = (line: string): string => {
    const body = line.trimStart();
    const pad = line.slice(0, line.length - body.length);
    if (/^(\+ |\+[^+]|\+$)/.test(body) && !body.startsWith('+++')) return pad + p.added(body);
    if (/^(- |-[^-]|-$)/.test(body) && !body.startsWith('---')) return pad + p.removed(body);
    return line;
  };
  const unchanged: string[] = [];
  for (const c of d.clusters) {
    if (quiet(c)) {
      unchanged.push(quietName(c));
      continue;
    }
    out.push('', p.heading(statusLine(c)));
    for (const l of clusterBody(c)) out.push(paint(`  ${l}`));
  }
  if (unchanged.length) out.push('', p.dim(`unchanged: ${unchanged.join(', ')}`));
  const { introduced, fixed } = d.findings;
  out.push('', `findings: ${introduced.length} introduced, ${fixed.length} fixed`);
  for (const f of introduced) out.push(p.added(`  + ${findingText(f)}`));
  for (const f of fixed) out.push(p.removed(`  - ${findingText(f)}`));
  return out.join('\n') + '\n';
}

/** The stable JSON document (docs/diff-json.md): sorted keys, two-space indent. */
export function diffJson(d: FleetDiff): string {
  const finding = (f: Finding) => ({ ...f });
  const doc = toSortedJson({
    clusters: [],
    findings: { fixed: d.findings.fixed.map(finding), introduced: d.findings.introduced.map(finding) },
    fleet: d.fleet,
    from: d.from,
    layout: d.layout,
    leaves: d.leaves,
    summary: {
      added: d.clusters.filter((c) => c.status === 'added').length,
      changed: d.clusters.filter((c) => c.status === 'changed').length,
      clusters: d.clusters.length,
      pinned: d.clusters.filter((c) => c.status === 'pinned').length,
      removed: d.clusters.filter((c) => c.status === 'removed').length,
      unchanged: d.clusters.filter((c) => c.status === 'unchanged').length,
      unreadable: d.clusters.filter((c) => c.status === 'unreadable').length,
      changes: hasChanges(d),
    },
    to: d.to,
  });
  // "clusters" sorts first: the list is printed cluster by cluster, so that jsonOf prints a cluster
  // built with its keys in order (diffCluster: an unchanged cluster, most of a fleet) with V8's
  // JSON.stringify, and any other with the sorting printer — the same bytes either way.
  const EMPTY = '{\n  "clusters": [],\n';
  if (d.clusters.length === 0 || !doc.startsWith(EMPTY)) return doc;
  // Every cluster in order (a diff where nothing was pinned): the whole list in one JSON.stringify,
  // the order checked once (docs/adr/0396).
  const ordered = orderedJson(d.clusters, '  ');
  if (ordered !== undefined) return '{\n  "clusters": ' + ordered + ',\n' + doc.slice(EMPTY.length);
  const list = d.clusters.map((c) => '    ' + jsonOf(c, '    ')).join(',\n');
  return '{\n  "clusters": [\n' + list + '\n  ],\n' + doc.slice(EMPTY.length);
}

function mdEscape(s: string): string {
  return s.replace(/[|\\`*_<>[\]]/g, (c) => `\\${c}`);
}

/** A fenced block that no line of `text` can close. */
function fence(text: string, lang: string): string {
  let ticks = '```';
  while (text.includes(ticks)) ticks += '`';
  return `${ticks}${lang}\n${text.replace(/\n?$/, '\n')}${ticks}\n`;
}

export interface MarkdownOptions {
  /** The most characters the comment may have (default MARKDOWN_LIMIT, GitHub's). */
  limit?: number;
}

/**
 * A pull-request comment: a heading, a table of clusters × added/changed/removed, then one
 * collapsible section per cluster that is not unchanged, then the findings delta. When it would
 * pass `limit` characters, cluster sections are left out from the end (the table stays whole)
 * and a line says how many, so the comment is never cut in the middle of a block.
 */
export function diffMarkdown(d: FleetDiff, options: MarkdownOptions = {}): string {
  const limit = options.limit ?? MARKDOWN_LIMIT;
  const head: string[] = [];
  head.push(`### fleetplan diff: ${mdEscape(d.fleet)}`, '');
  head.push(`\`${revisionLabel(d.from)}\` → \`${revisionLabel(d.to)}\`${d.leaves ? ' (with leaf manifests)' : ''}: ${summary(d)}`, '');
  const shown = d.clusters.filter((c) => !quiet(c));
  if (shown.length) {
    head.push(`| cluster | status | added | changed | removed |${d.leaves ? ' leaf objects |' : ''}`, `|---|---|--:|--:|--:|${d.leaves ? '--:|' : ''}`);
    for (const c of shown) {
      const counts = c.status === 'pinned' && c.pending ? c.pending : c.counts;
      const status = c.status === 'pinned' ? 'pinned: no change until promoted' : c.status;
      const leaves = d.leaves ? ` ${c.leaves?.length ?? 0} |` : '';
      head.push(`| ${mdEscape(c.name)} | ${status} | ${counts.added} | ${counts.changed} | ${counts.removed} |${leaves}`);
    }
    head.push('');
  } else {
    head.push('No cluster changes.', '');
  }
  const unchanged = d.clusters.filter(quiet).map(quietName);
  if (unchanged.length) head.push(`Unchanged: ${unchanged.map(mdEscape).join(', ')}`, '');

  const { introduced, fixed } = d.findings;
  const tail: string[] = [`#### Findings: ${introduced.length} introduced, ${fixed.length} fixed`, ''];
  if (introduced.length || fixed.length) {
    const lines = [...introduced.map((f) => `+ ${findingText(f)}`), ...fixed.map((f) => `- ${findingText(f)}`)];
    tail.push(fence(lines.join('\n'), 'diff'));
  }

  const sections = shown.map((c) => {
    const counts = c.status === 'pinned' && c.pending ? c.pending : c.counts;
    const title = `<b>${mdEscape(c.name)}</b>: ${c.status === 'pinned' ? 'pinned, no change until promoted' : c.status} (${countsText(counts)})`;
    return `<details><summary>${title}</summary>\n\n${fence(clusterBody(c).join('\n'), 'diff')}\n</details>\n`;
  });

  const join = (parts: string[]) => parts.join('\n');
  let kept = sections.length;
  const build = (n: number): string => {
    const left = sections.length - n;
    const note = left > 0 ? [`_${left} of ${sections.length} cluster sections left out to stay within ${limit.toLocaleString('en-US')} characters; run \`fleetplan diff\` for the full report._`, ''] : [];
    return join([...head, ...sections.slice(0, n), ...note, ...tail]);
  };
  let text = build(kept);
  while (text.length > limit && kept > 0) text = build(--kept);
  return text.endsWith('\n') ? text : text + '\n';
}

export function formatDiff(d: FleetDiff, format: DiffFormat, palette?: DiffPalette): string {
  if (format === 'json') return diffJson(d);
  if (format === 'markdown') return diffMarkdown(d);
  return diffText(d, palette);
}
