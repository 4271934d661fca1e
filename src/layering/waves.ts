/**
 * Effective sync waves from explicit `wave`s and `needs` (DESIGN §2, Waves):
 * an app's effective wave is its explicit wave if given, and never lower than one more than the
 * highest effective wave among its needs. An explicit wave that is not above a need's wave is a
 * conflict; a needs cycle and a need naming no app are errors. Pure: names in, numbers and
 * problems out; the caller places problems in files.
 */

export interface WaveNode {
  name: string;
  explicit: number | undefined;
  needs: readonly string[];
}

export type WaveProblem =
  | { kind: 'unknown-need'; app: string; need: string; index: number }
  | { kind: 'cycle'; cycle: string[] }
  | { kind: 'wave-conflict'; app: string; wave: number; need: string; needWave: number };

export interface WaveResult {
  waves: Map<string, number>;
  problems: WaveProblem[];
}

export function computeWaves(nodes: readonly WaveNode[], defaultWave = 0): WaveResult {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const waves = new Map<string, number>();
  const problems: WaveProblem[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const cyclesSeen = new Set<string>();
  const inCycle = new Set<string>();

  const visit = (name: string): number => {
    const node = byName.get(name)!;
    const s = state.get(name);
    if (s === 'done') return waves.get(name)!;
    if (s === 'visiting') {
      const cycle = stack.slice(stack.indexOf(name));
      for (const c of cycle) inCycle.add(c);
      const canonical = rotateToSmallest(cycle);
      const key = canonical.join('\0');
      if (!cyclesSeen.has(key)) {
        cyclesSeen.add(key);
        problems.push({ kind: 'cycle', cycle: [...canonical, canonical[0]!] });
      }
      return node.explicit ?? defaultWave;
    }
    state.set(name, 'visiting');
    stack.push(name);
    let floor = -Infinity;
    let highestNeed: { need: string; wave: number } | undefined;
    node.needs.forEach((need, index) => {
      if (!byName.has(need)) {
        problems.push({ kind: 'unknown-need', app: name, need, index });
        return;
      }
      const w = visit(need);
      if (inCycle.has(need) && inCycle.has(name)) return;
      if (highestNeed === undefined || w > highestNeed.wave) highestNeed = { need, wave: w };
      floor = Math.max(floor, w + 1);
    });
    stack.pop();
    let wave: number;
    if (node.explicit !== undefined) {
      wave = node.explicit;
      if (highestNeed && node.explicit < floor) {
        problems.push({ kind: 'wave-conflict', app: name, wave: node.explicit, need: highestNeed.need, needWave: highestNeed.wave });
      }
    } else {
      wave = floor === -Infinity ? defaultWave : floor;
    }
    waves.set(name, wave);
    state.set(name, 'done');
    return wave;
  };

  for (const n of [...nodes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) visit(n.name);
  return { waves, problems };
}

function rotateToSmallest(cycle: string[]): string[] {
  let min = 0;
  for (let i = 1; i < cycle.length; i++) if (cycle[i]! < cycle[min]!) min = i;
  return [...cycle.slice(min), ...cycle.slice(0, min)];
}

/** `a → b → a` */
export function formatCycle(cycle: readonly string[]): string {
  return cycle.join(' → ');
}
