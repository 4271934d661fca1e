/** Findings as JSON or SARIF 2.1.0 (for code scanning in CI). */
import type { Finding, Severity } from '../model/finding.js';
import { findingJson } from './plan-format.js';
import { toSortedJson } from '../yaml/serialize.js';

export function findingsJson(findings: readonly Finding[]): string {
  const count = (s: string) => findings.filter((f) => f.severity === s).length;
  return toSortedJson({
    findings: findings.map(findingJson),
    summary: { errors: count('error'), warnings: count('warning'), notes: count('info') },
  });
}

/** What SARIF shows about a rule: its default level, a one-line summary and the help text. */
export interface SarifRuleInfo {
  severity: Severity;
  summary: string;
  help: string;
}

const sarifLevel = (s: Severity) => (s === 'error' ? 'error' : s === 'warning' ? 'warning' : 'note');

/**
 * SARIF 2.1.0. With `catalog`, every code fleetplan can report is listed as a rule with its
 * default level and help (code scanning shows them), not only the codes found this run.
 */
export function findingsSarif(findings: readonly Finding[], version: string, catalog: Readonly<Record<string, SarifRuleInfo>> = {}): string {
  const codes = [...new Set([...Object.keys(catalog), ...findings.map((f) => f.code)])].sort();
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'fleetplan',
            version,
            informationUri: 'https://fleetplan.io',
            rules: codes.map((id) => {
              const info = catalog[id];
              if (!info) return { id, name: id, shortDescription: { text: id.replace(/-/g, ' ') } };
              return {
                id,
                name: id,
                shortDescription: { text: info.summary },
                fullDescription: { text: info.help },
                help: { text: info.help },
                defaultConfiguration: { level: sarifLevel(info.severity) },
              };
            }),
          },
        },
        results: findings.map((f) => {
          const result: Record<string, unknown> = {
            ruleId: f.code,
            ruleIndex: codes.indexOf(f.code),
            level: sarifLevel(f.severity),
            message: { text: f.hint ? `${f.path ? f.path + ': ' : ''}${f.message} (${f.hint})` : `${f.path ? f.path + ': ' : ''}${f.message}` },
          };
          if (f.file) {
            const region: Record<string, number> = {};
            if (f.line !== undefined) region.startLine = f.line;
            if (f.column !== undefined) region.startColumn = f.column;
            result.locations = [
              { physicalLocation: { artifactLocation: { uri: f.file, uriBaseId: '%SRCROOT%' }, ...(f.line !== undefined ? { region } : {}) } },
            ];
          }
          return result;
        }),
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
