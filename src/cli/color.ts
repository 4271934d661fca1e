/**
 * Colour on a terminal, decided per stream from the environment and the stream the CLI was given
 * (never from process.env; see docs/adr/0170-command-line.md):
 *   1. FORCE_COLOR set and non-empty: "0" or "false" turns colour off, any other value on;
 *   2. NO_COLOR set and non-empty: off (https://no-color.org);
 *   3. TERM=dumb: off;
 *   4. otherwise on exactly when the stream is a terminal (isTTY).
 * Only SGR colour codes are written; a plain palette returns its text unchanged.
 */

export interface Palette {
  readonly enabled: boolean;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

export function colorEnabled(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

const sgr = (open: number, close: number) => (s: string) => (s === '' ? s : `\x1b[${open}m${s}\x1b[${close}m`);

export const plain: Palette = { enabled: false, red: (s) => s, yellow: (s) => s, cyan: (s) => s, bold: (s) => s, dim: (s) => s };

export const ansi: Palette = { enabled: true, red: sgr(31, 39), yellow: sgr(33, 39), cyan: sgr(36, 39), bold: sgr(1, 22), dim: sgr(2, 22) };

export function paletteFor(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): Palette {
  return colorEnabled(stream, env) ? ansi : plain;
}

/** A severity word in its colour: error red, warning yellow, others as they are. */
export function severity(p: Palette, word: string): string {
  return word === 'error' ? p.red(word) : word === 'warning' ? p.yellow(word) : word;
}

/** A finding line `error: file:line: message [code]` (render/plan-format findingLine) with its severity coloured. */
export function paintFindingLine(p: Palette, line: string): string {
  if (!p.enabled) return line;
  const m = /^(error|warning)(?=:)/.exec(line);
  return m ? severity(p, m[1]!) + line.slice(m[1]!.length) : line;
}

/**
 * `fleetplan validate` text (render/plan-format formatFindingsText): the severity column of each
 * finding line coloured, file headings bold.
 */
export function paintFindingsText(p: Palette, text: string): string {
  if (!p.enabled) return text;
  return text
    .split('\n')
    .map((line) => {
      const m = /^( {2}\S+ +)(error|warning)( )/.exec(line);
      if (m) return m[1]! + severity(p, m[2]!) + line.slice(m[1]!.length + m[2]!.length);
      return line !== '' && !line.startsWith(' ') && !/^\d+ errors?, /.test(line) && line !== 'no findings' ? p.bold(line) : line;
    })
    .join('\n');
}

/** The text plan (render/plan-format planText): headings (the fleet line, each cluster line) bold, sections cyan. */
export function paintPlanText(p: Palette, text: string): string {
  if (!p.enabled) return text;
  return text
    .split('\n')
    .map((line) => {
      if (line !== '' && !line.startsWith(' ')) return p.bold(line);
      // The sections of a cluster: "  bootstrap", "  wave 15  apps…".
      const m = /^ {2}(bootstrap$|wave +\d+)/.exec(line);
      return m ? `  ${p.cyan(m[1]!)}${line.slice(2 + m[1]!.length)}` : line;
    })
    .join('\n');
}
