/** `plan -o json` as the layout tests read it (DESIGN.md §4, the stable machine interface). */
export interface PlanJson {
  fleet: string;
  layout: string;
  clusters: {
    name: string;
    role: string;
    hub: string | null;
    region?: string | null;
    revision: string;
    bootstrap: { file: string; description: string; objects: string[] }[];
    notes: string[];
    waves: { wave: number; apps: string[] }[];
    apps: { name: string; wave: number; from: string; project: string; destination: { namespace?: string }; source: { repoURL: string; targetRevision: string; path?: string; chart?: string } }[];
  }[];
  findings: unknown[];
}
