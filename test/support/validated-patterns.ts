/**
 * A Validated Patterns hub for tests: values-global.yaml naming pattern `demo` and group `hub`,
 * and values-hub.yaml with namespace `web` and one application `web` (by default the local chart
 * charts/web). `app` replaces the application's settings (indented under `web:`).
 */
export const VP_GLOBAL = 'global:\n  pattern: demo\nmain:\n  clusterGroupName: hub\n';

export function vpHubValues(app = 'name: web\n      namespace: web\n      path: charts/web\n'): string {
  return [
    'clusterGroup:',
    '  name: hub',
    '  isHubCluster: true',
    '  namespaces:',
    '    - web',
    '  applications:',
    '    web:',
    `      ${app}`,
  ].join('\n');
}
