/** A Plan as text for people, JSON for machines, or a Mermaid / Graphviz graph. */
import type { Finding } from '../model/finding.js';
import type { ClusterPlan, Plan } from '../model/plan.js';
import { jsonOf } from '../yaml/serialize.js';

export type PlanFormat = 'text' | 'json' | 'mermaid' | 'dot';

export function formatPlan(plan: Plan, format: PlanFormat): string {
  switch (format) {
    case 'json':
      return planJson(plan);
    case 'mermaid':
      return planMermaid(plan);
    case 'dot':
      return planDot(plan);
    case 'text':
      return planText(plan);
  }
}

/** The stable machine interface of DESIGN §4. */
export function planJson(plan: Plan): string {
  return [...planJsonChunks(plan)].join('');
}

/**
 * The same bytes as `toSortedJson` of the plan document, produced cluster by cluster so that a
 * large fleet never needs its whole plan as one string. `clusters` is iterated once: with a lazy
 * plan (planFleetLazily) each cluster's plan is made, written and dropped in turn.
 */
export function* planJsonChunks(plan: Omit<Plan, 'clusters'> & { clusters: Iterable<ClusterPlan> }): Generator<string> {
  // Keys in sorted order: clusters, findings, fleet, layout.
  let first = true;
  for (const c of plan.clusters) {
    yield (first ? '{\n  "clusters": [\n    ' : ',\n    ') + jsonOf(c, '    ');
    first = false;
  }
  yield first ? '{\n  "clusters": [],' : '\n  ],';
  yield '\n  "findings": ' + jsonOf(plan.findings.map(findingJson), '  ');
  yield ',\n  "fleet": ' + JSON.stringify(plan.fleet);
  yield ',\n  "layout": ' + JSON.stringify(plan.layout) + '\n}\n';
}

export function findingJson(f: Finding): Record<string, unknown> {
  const o: Record<string, unknown> = { severity: f.severity, code: f.code, message: f.message };
  for (const k of ['file', 'line', 'column', 'path', 'hint', 'cluster', 'app'] as const) if (f[k] !== undefined) o[k] = f[k];
  return o;
}

export function planText(plan: Plan): string {
  const lines: string[] = [];
  const n = plan.clusters.length;
  lines.push(`fleet ${plan.fleet}: ${n} cluster${n === 1 ? '' : 's'}${plan.layout !== 'native' ? ` (${plan.layout} layout)` : ''}`);
  for (const c of plan.clusters) {
    lines.push('');
    const facts = [`role ${c.role}`];
    if (c.hub && c.hub !== c.name) facts.push(`hub ${c.hub}`);
    if (c.region) facts.push(`region ${c.region}`);
    if (c.sector) facts.push(`sector ${c.sector}`);
    facts.push(`revision ${c.revision}`, c.platform);
    lines.push(`${c.name}  (${facts.join(', ')})`);
    for (const note of c.notes) lines.push(`  note: ${note}`);
    if (c.provisioning) lines.push(`  provisioned by ${c.provisioning.hub} (${c.provisioning.installer}, app ${c.provisioning.app})`);
    for (const w of c.waitsFor ?? []) lines.push(`  wait: ${w.description}${w.createdBy ? ` (created by app ${w.createdBy} on ${w.cluster})` : ''}`);
    const stages = (c.stages ?? []).filter((s) => s.wave === undefined && s.phase === undefined);
    if (stages.length) {
      lines.push('  bootstrap');
      for (const note of c.bootstrapNotes ?? []) lines.push(`    note: ${note}`);
      const w = Math.max(...stages.map((s) => s.name.length));
      for (const s of stages) {
        const files = s.files.length ? `  [${s.files.join(', ')}]` : '';
        lines.push(`    ${s.name.padEnd(w)}  ${s.description}${files}`);
        const pad = ' '.repeat(w + 6);
        if (s.gate) lines.push(`${pad}when: CRD ${s.gate} Established (alongside the waves)`);
        for (const t of s.wait) lines.push(`${pad}wait: ${t}`);
      }
    } else if (c.bootstrap.length) {
      lines.push('  bootstrap');
      for (const note of c.bootstrapNotes ?? []) lines.push(`    note: ${note}`);
      const w = Math.max(...c.bootstrap.map((b) => b.file.length));
      for (const b of c.bootstrap) lines.push(`    ${b.file.padEnd(w)}  ${b.description}`);
    } else if (c.bootstrapNotes?.length) {
      // Nothing the bootstrap can run: its notes say why (-o json has them too).
      lines.push('  bootstrap');
      for (const note of c.bootstrapNotes) lines.push(`    note: ${note}`);
    }
    const width = Math.max(0, ...c.waves.map((w) => String(w.wave).length));
    for (const w of c.waves) {
      lines.push(`  wave ${String(w.wave).padStart(width)}  ${w.apps.map((a) => withNeeds(c, a)).join(', ')}`);
    }
    const last = (c.stages ?? []).filter((s) => s.wave !== undefined).pop();
    if (last) lines.push(`  each wave waits: every Application Synced and Healthy; the last also: ${last.wait[last.wait.length - 1] ?? ''}`);
    const two = (c.stages ?? []).filter((s) => s.phase === 2);
    if (two.length) {
      lines.push('  phase 2: internal Git (fleetplan mirror, run by bootstrap once the waves converge)');
      const w = Math.max(...two.map((s) => s.name.length));
      const pad = ' '.repeat(w + 6);
      for (const s of two) {
        lines.push(`    ${s.name.padEnd(w)}  ${s.description}`);
        for (const o of s.objects) lines.push(`${pad}apply: ${o}`);
        for (const t of s.wait) lines.push(`${pad}wait: ${t}`);
        for (const n of s.notes) lines.push(`${pad}note: ${n}`);
      }
    }
    const appCount = c.apps.length;
    const objects = c.objects?.length ?? 0;
    lines.push(`  ${appCount} app${appCount === 1 ? '' : 's'} in ${c.waves.length} wave${c.waves.length === 1 ? '' : 's'}${objects ? `, and ${objects} other object${objects === 1 ? '' : 's'}` : ''}`);
  }
  return lines.join('\n') + '\n';
}

function withNeeds(c: ClusterPlan, name: string): string {
  const app = c.apps.find((a) => a.name === name);
  const notes: string[] = [];
  if (app && app.needs.length) notes.push(`needs ${app.needs.join(', ')}`);
  if (app && c.provisions?.includes(name)) notes.push(`provisions ${name}`);
  return notes.length ? `${name} (${notes.join('; ')})` : name;
}

function id(...parts: string[]): string {
  return parts.map((p) => p.replace(/[^A-Za-z0-9]/g, '_')).join('__');
}

export function planMermaid(plan: Plan): string {
  const out: string[] = ['flowchart TB'];
  for (const c of plan.clusters) {
    const cid = id('c', c.name);
    out.push(`  subgraph ${cid}["${c.name} (${c.role})"]`);
    out.push('    direction TB');
    if (c.bootstrap.length) {
      out.push(`    ${id(cid, 'bootstrap')}["bootstrap: ${c.bootstrap.map((b) => b.file.replace(/\.yaml$/, '')).join(' → ')}"]`);
    }
    for (const w of c.waves) {
      const wid = id(cid, `w${w.wave}`);
      out.push(`    subgraph ${wid}["wave ${w.wave}"]`);
      for (const a of w.apps) out.push(`      ${id(cid, 'app', a)}["${a}"]`);
      out.push('    end');
    }
    const chain = [...(c.bootstrap.length ? [id(cid, 'bootstrap')] : []), ...c.waves.map((w) => id(cid, `w${w.wave}`))];
    for (let i = 1; i < chain.length; i++) out.push(`    ${chain[i - 1]} --> ${chain[i]}`);
    for (const a of c.apps) for (const need of a.needs) out.push(`    ${id(cid, 'app', need)} -.->|needs| ${id(cid, 'app', a.name)}`);
    out.push('  end');
  }
  const names = new Set(plan.clusters.map((c) => c.name));
  for (const c of plan.clusters) {
    if (c.hub && c.hub !== c.name && names.has(c.hub)) out.push(`  ${id('c', c.hub)} ==>|provisions| ${id('c', c.name)}`);
  }
  return out.join('\n') + '\n';
}

export function planDot(plan: Plan): string {
  const q = (s: string) => `"${s.replace(/"/g, '\\"')}"`;
  const out: string[] = ['digraph fleet {', '  rankdir=TB;', '  node [shape=box, fontname="Helvetica"];'];
  for (const c of plan.clusters) {
    out.push(`  subgraph ${q('cluster_' + c.name)} {`);
    out.push(`    label=${q(`${c.name} (${c.role})`)};`);
    for (const w of c.waves) {
      out.push(`    subgraph ${q(`cluster_${c.name}_w${w.wave}`)} {`);
      out.push(`      label=${q(`wave ${w.wave}`)};`);
      for (const a of w.apps) out.push(`      ${q(`${c.name}/${a}`)} [label=${q(a)}];`);
      out.push('    }');
    }
    for (let i = 1; i < c.waves.length; i++) {
      const prev = c.waves[i - 1]!;
      const cur = c.waves[i]!;
      out.push(`    ${q(`${c.name}/${prev.apps[0]}`)} -> ${q(`${c.name}/${cur.apps[0]}`)} [style=invis];`);
    }
    for (const a of c.apps) for (const need of a.needs) out.push(`    ${q(`${c.name}/${need}`)} -> ${q(`${c.name}/${a.name}`)} [label="needs"];`);
    out.push('  }');
  }
  out.push('}');
  return out.join('\n') + '\n';
}

/** Findings for people: grouped by file, then a summary line. */
export function formatFindingsText(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'no findings\n';
  const lines: string[] = [];
  let currentFile: string | undefined | null = null;
  for (const f of findings) {
    if (f.file !== currentFile) {
      if (currentFile !== null) lines.push('');
      lines.push(f.file ?? '(fleet)');
      currentFile = f.file;
    }
    const pos = f.line !== undefined ? `${f.line}:${f.column ?? 1}` : '-';
    lines.push(`  ${pos.padEnd(7)} ${f.severity.padEnd(7)} ${f.code.padEnd(20)} ${f.path ? f.path + ': ' : ''}${f.message}`);
    if (f.hint) lines.push(`  ${''.padEnd(7)} ${''.padEnd(7)} ${''.padEnd(20)} hint: ${f.hint}`);
  }
  lines.push('');
  lines.push(summaryLine(findings));
  return lines.join('\n') + '\n';
}

export function summaryLine(findings: readonly Finding[]): string {
  const count = (s: string) => findings.filter((f) => f.severity === s).length;
  const e = count('error');
  const w = count('warning');
  const i = count('info');
  const parts = [`${e} error${e === 1 ? '' : 's'}`, `${w} warning${w === 1 ? '' : 's'}`];
  if (i) parts.push(`${i} note${i === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** One line per finding, `file:line:col path: message (hint)`, for stderr. */
export function findingLine(f: Finding): string {
  const where = f.file ? `${f.file}${f.line !== undefined ? `:${f.line}:${f.column ?? 1}` : ''}${f.path ? ' ' + f.path : ''}: ` : '';
  return `${f.severity}: ${where}${f.message}${f.hint ? ` (${f.hint})` : ''} [${f.code}]`;
}
