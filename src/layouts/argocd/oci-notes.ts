/**
 * The plan's note on Argo CD 3.1 native OCI sources (ADR 0317): their content is in a registry,
 * not in the repository, so `plan` lists the Application as written and says that what is inside
 * (manifests, or Applications of an app-of-apps) is neither read nor followed offline.
 */
import type { Fleet } from '../../model/fleet.js';

export function addOciSourceNotes(fleet: Fleet): void {
  for (const c of fleet.clusters) {
    const apps = Object.entries(c.spec.apps ?? {})
      .filter(([, a]) => typeof a.repoURL === 'string' && a.repoURL.startsWith('oci://'))
      // An app-of-apps from a registry already has its own "not read" note (ADR 0368).
      .filter(([name]) => !(c.notes ?? []).some((n) => n.startsWith(`not read: Application ${name} (`)))
      .map(([name, a]) => `${name} (${a.repoURL}${a.targetRevision ? ` ${a.targetRevision}` : ''}${a.path && a.path !== '.' ? `, path ${a.path}` : ''})`)
      .sort();
    if (apps.length === 0) continue;
    c.notes = [
      ...(c.notes ?? []),
      `not read offline: the OCI artifact${apps.length === 1 ? '' : 's'} of ${apps.join('; ')}: Argo CD 3.1 pulls ${apps.length === 1 ? 'it' : 'them'} from the registry, so ${apps.length === 1 ? 'its' : 'their'} manifests (and any Application in them) are not in this plan; render --leaves --fetch builds them`,
    ];
  }
}
