/** Findings as JSON or SARIF 2.1.0 (for code scanning in CI). */
import type { Finding } from '../model/finding.js';
import { findingJson } from './plan-format.js';
import { toSortedJson } from './yaml.js';

export function findingsJson(findings: readonly Finding[]): string {
  const count = (s: string) => findings.filter((f) => f.severity === s).length;
  return toSortedJson({
    findings: findings.map(findingJson),
    summary: { errors: count('error'), warnings: count('warning'), notes: count('info') },
  });
}

export function findingsSarif(findings: readonly Finding[], version: string): string {
  const codes = [...new Set(findings.map((f) => f.code))].sort();
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
            rules: codes.map((id) => ({ id, name: id, shortDescription: { text: id.replace(/-/g, ' ') } })),
          },
        },
        results: findings.map((f) => {
          const result: Record<string, unknown> = {
            ruleId: f.code,
            ruleIndex: codes.indexOf(f.code),
            level: f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'note',
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
