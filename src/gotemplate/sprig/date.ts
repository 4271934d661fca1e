/**
 * sprig's date functions over a time.Time model: Go layouts (`2006-01-02 15:04:05`), zones
 * through Intl, durations as time.Duration prints them. `now` reads the real clock, as in Argo CD.
 */
import { FuncError } from '../errors.js';
import type { FuncDef } from '../funcs.js';
import { def } from '../funcs.js';
import type { GoValue } from '../values.js';
import { GoObject, NOT_FOUND, TypedInt, int64 } from '../values.js';

const NS = 1_000_000_000n;

export class GoTime extends GoObject {
  readonly goType = 'time.Time';
  /** Unix time in nanoseconds and the IANA zone name (or UTC/Local). */
  constructor(
    readonly ns: bigint,
    readonly zone: string,
  ) {
    super();
  }
  static now(): GoTime {
    return new GoTime(BigInt(Date.now()) * 1_000_000n, 'Local');
  }
  in(zone: string): GoTime {
    return new GoTime(this.ns, zone);
  }
  override goString(): string {
    return formatTime(this, '2006-01-02 15:04:05.999999999 -0700 MST');
  }
  plain(): string {
    return this.goString();
  }
  field(): GoValue | typeof NOT_FOUND {
    return NOT_FOUND;
  }
  override method(name: string): { arity: number; call: (args: GoValue[]) => GoValue } | undefined {
    const f = fieldsOf(this);
    switch (name) {
      case 'Year':
        return { arity: 0, call: () => BigInt(f.year) };
      case 'Month':
        return { arity: 0, call: () => BigInt(f.month) };
      case 'Day':
        return { arity: 0, call: () => BigInt(f.day) };
      case 'Hour':
        return { arity: 0, call: () => BigInt(f.hour) };
      case 'Minute':
        return { arity: 0, call: () => BigInt(f.minute) };
      case 'Second':
        return { arity: 0, call: () => BigInt(f.second) };
      case 'Nanosecond':
        return { arity: 0, call: () => BigInt(f.nanos) };
      case 'YearDay':
        return { arity: 0, call: () => BigInt(f.yearDay) };
      case 'Unix':
        return { arity: 0, call: () => int64(floorDiv(this.ns, NS)) };
      case 'UnixNano':
        return { arity: 0, call: () => int64(this.ns) };
      case 'UTC':
        return { arity: 0, call: () => this.in('UTC') };
      case 'Local':
        return { arity: 0, call: () => this.in('Local') };
      case 'Format':
        return { arity: 1, call: ([l]) => formatTime(this, String(l)) };
      case 'String':
        return { arity: 0, call: () => this.goString() };
    }
    return undefined;
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function resolveZone(zone: string): string {
  if (zone === 'Local') return Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone;
}

function validZone(zone: string): boolean {
  if (zone === 'UTC' || zone === 'Local' || zone === '') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Offset (seconds east of UTC) and abbreviation of a zone at an instant. */
function zoneInfo(zone: string, ms: number): { offset: number; abbr: string } {
  const tz = resolveZone(zone);
  if (tz === 'UTC' || tz === 'Etc/UTC') return { offset: 0, abbr: 'UTC' };
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' }).formatToParts(new Date(ms));
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60) : 0;
  let abbr = zoneAbbreviation(tz, ms);
  if (/^GMT|^UTC/.test(abbr)) {
    const sign = offset < 0 ? '-' : '+';
    const a = Math.abs(offset);
    const hh = String(Math.floor(a / 3600)).padStart(2, '0');
    const mm = Math.floor((a % 3600) / 60);
    abbr = offset === 0 ? 'UTC' : sign + hh + (mm ? String(mm).padStart(2, '0') : '');
  }
  return { offset, abbr };
}

/**
 * The zone's abbreviation as ICU knows it: the first alphabetic one among a few English locales
 * (ICU names CET only in en-GB, IST only in en-IN, …); tzdata, which Go reads, agrees for the
 * common zones. Where ICU has none, the caller writes a numeric one ("+04"), as tzdata often does.
 */
const ABBR_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU', 'en-NZ', 'en-ZA', 'ja-JP'];
function zoneAbbreviation(tz: string, ms: number): string {
  let first = 'UTC';
  for (const locale of ABBR_LOCALES) {
    const parts = new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: 'short' }).formatToParts(new Date(ms));
    const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'UTC';
    if (locale === 'en-US') first = name;
    if (/^[A-Z]{2,5}$/.test(name) && name !== 'GMT' && name !== 'UTC') return name;
    if (name === 'GMT' && tz.startsWith('Europe/')) return 'GMT';
  }
  return first;
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  weekday: number;
  yearDay: number;
  offset: number;
  abbr: string;
}

function fieldsOf(t: GoTime): Fields {
  const secs = floorDiv(t.ns, NS);
  const nanos = Number(t.ns - secs * NS);
  const ms = Number(secs) * 1000;
  const { offset, abbr } = zoneInfo(t.zone, ms);
  const d = new Date(ms + offset * 1000);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    nanos,
    weekday: d.getUTCDay(),
    yearDay: Math.floor((d.getTime() - start) / 86400000) + 1,
    offset,
    abbr,
  };
}

const longMonths = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const longDays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number, w: number): string => String(n).padStart(w, '0');

const tokens = [
  'January', 'Jan', 'Monday', 'Mon', 'MST',
  '2006', '002', '__2', '_2', '06', '01', '02', '03', '04', '05', '15',
  '-07:00:00', '-070000', '-07:00', '-0700', '-07',
  'Z07:00:00', 'Z070000', 'Z07:00', 'Z0700', 'Z07',
  'PM', 'pm', '1', '2', '3', '4', '5',
];

/** time.Time.Format with a Go layout. */
export function formatTime(t: GoTime, layout: string): string {
  const f = fieldsOf(t);
  let out = '';
  for (let i = 0; i < layout.length; ) {
    const c = layout[i]!;
    if ((c === '.' || c === ',') && (layout[i + 1] === '0' || layout[i + 1] === '9')) {
      const d = layout[i + 1]!;
      let j = i + 1;
      while (layout[j] === d) j++;
      if (!/[0-9]/.test(layout[j] ?? '')) {
        const n = j - i - 1;
        let frac = pad(f.nanos, 9).slice(0, n);
        if (d === '9') {
          frac = frac.replace(/0+$/, '');
          out += frac === '' ? '' : c + frac;
        } else out += c + frac;
        i = j;
        continue;
      }
    }
    let tok: string | undefined;
    for (const k of tokens) {
      if (layout.startsWith(k, i)) {
        tok = k;
        break;
      }
    }
    if (tok === 'Jan' && layout.startsWith('January', i)) tok = 'January';
    if (tok === undefined) {
      out += c;
      i++;
      continue;
    }
    i += tok.length;
    const tz = (colon: boolean, secs: boolean, short: boolean, z: boolean): string => {
      if (z && f.offset === 0) return 'Z';
      const sign = f.offset < 0 ? '-' : '+';
      const a = Math.abs(f.offset);
      const hh = pad(Math.floor(a / 3600), 2);
      const mm = pad(Math.floor((a % 3600) / 60), 2);
      const ss = pad(a % 60, 2);
      if (short) return sign + hh;
      return sign + hh + (colon ? ':' : '') + mm + (secs ? (colon ? ':' : '') + ss : '');
    };
    switch (tok) {
      case 'January':
        out += longMonths[f.month - 1];
        break;
      case 'Jan':
        out += longMonths[f.month - 1]!.slice(0, 3);
        break;
      case 'Monday':
        out += longDays[f.weekday];
        break;
      case 'Mon':
        out += longDays[f.weekday]!.slice(0, 3);
        break;
      case 'MST':
        out += f.abbr;
        break;
      case '2006':
        out += pad(f.year, 4);
        break;
      case '06':
        out += pad(f.year % 100, 2);
        break;
      case '01':
        out += pad(f.month, 2);
        break;
      case '1':
        out += String(f.month);
        break;
      case '02':
        out += pad(f.day, 2);
        break;
      case '2':
        out += String(f.day);
        break;
      case '_2':
        out += String(f.day).padStart(2, ' ');
        break;
      case '002':
        out += pad(f.yearDay, 3);
        break;
      case '__2':
        out += String(f.yearDay).padStart(3, ' ');
        break;
      case '15':
        out += pad(f.hour, 2);
        break;
      case '03':
        out += pad(f.hour % 12 === 0 ? 12 : f.hour % 12, 2);
        break;
      case '3':
        out += String(f.hour % 12 === 0 ? 12 : f.hour % 12);
        break;
      case '04':
        out += pad(f.minute, 2);
        break;
      case '4':
        out += String(f.minute);
        break;
      case '05':
        out += pad(f.second, 2);
        break;
      case '5':
        out += String(f.second);
        break;
      case 'PM':
        out += f.hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += f.hour >= 12 ? 'pm' : 'am';
        break;
      case '-07:00:00':
        out += tz(true, true, false, false);
        break;
      case '-070000':
        out += tz(false, true, false, false);
        break;
      case '-07:00':
        out += tz(true, false, false, false);
        break;
      case '-0700':
        out += tz(false, false, false, false);
        break;
      case '-07':
        out += tz(false, false, true, false);
        break;
      case 'Z07:00:00':
        out += tz(true, true, false, true);
        break;
      case 'Z070000':
        out += tz(false, true, false, true);
        break;
      case 'Z07:00':
        out += tz(true, false, false, true);
        break;
      case 'Z0700':
        out += tz(false, false, false, true);
        break;
      case 'Z07':
        out += tz(false, false, true, true);
        break;
    }
  }
  return out;
}

/** time.Parse (layout in the given zone) for the common numeric layouts. */
export function parseTime(layout: string, value: string, zone: string): GoTime {
  let re = '';
  const groups: string[] = [];
  for (let i = 0; i < layout.length; ) {
    let tok: string | undefined;
    for (const k of tokens) {
      if (layout.startsWith(k, i)) {
        tok = k;
        break;
      }
    }
    if (tok === 'Jan' && layout.startsWith('January', i)) tok = 'January';
    if (tok === undefined) {
      const c = layout[i]!;
      if ((c === '.' || c === ',') && /[09]/.test(layout[i + 1] ?? '')) {
        let j = i + 1;
        while (/[09]/.test(layout[j] ?? '')) j++;
        re += '(?:[.,](\\d+))?';
        groups.push('frac');
        i = j;
        continue;
      }
      re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i++;
      continue;
    }
    i += tok.length;
    const map: Record<string, string> = {
      '2006': '(\\d{4})', '06': '(\\d{2})', '01': '(\\d{2})', '1': '(\\d{1,2})', '02': '(\\d{2})', '2': '(\\d{1,2})', '_2': ' ?(\\d{1,2})',
      '15': '(\\d{2})', '03': '(\\d{2})', '3': '(\\d{1,2})', '04': '(\\d{2})', '4': '(\\d{1,2})', '05': '(\\d{2})', '5': '(\\d{1,2})',
      January: '([A-Za-z]+)', Jan: '([A-Za-z]{3})', Monday: '([A-Za-z]+)', Mon: '([A-Za-z]{3})', MST: '([A-Za-z]{3,4}|[+-]\\d+)',
      PM: '(AM|PM)', pm: '(am|pm)',
      '-07:00': '([+-]\\d{2}:\\d{2})', '-0700': '([+-]\\d{4})', '-07': '([+-]\\d{2})',
      'Z07:00': '(Z|[+-]\\d{2}:\\d{2})', 'Z0700': '(Z|[+-]\\d{4})', 'Z07': '(Z|[+-]\\d{2})',
    };
    const r = map[tok];
    if (r === undefined) throw new FuncError(`parsing time ${JSON.stringify(value)}: unsupported layout element ${JSON.stringify(tok)}`);
    re += r;
    groups.push(tok);
    // Go accepts a fractional second right after the seconds even when the layout has none.
    if ((tok === '05' || tok === '5') && !/^[.,][09]/.test(layout.slice(i))) {
      re += '(?:[.,](\\d+))?';
      groups.push('frac');
    }
  }
  const m = new RegExp('^' + re + '$').exec(value);
  if (!m) throw new FuncError(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse`);
  let year = 0; // Go: elements missing from the layout are zero (year) or one (month, day)
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanos = 0;
  let pm: boolean | undefined;
  let offset: number | undefined;
  groups.forEach((g, k) => {
    const v = m[k + 1];
    if (v === undefined) return;
    switch (g) {
      case '2006':
        year = Number(v);
        break;
      case '06':
        year = Number(v) + (Number(v) >= 69 ? 1900 : 2000);
        break;
      case '01':
      case '1':
        month = Number(v);
        break;
      case 'January':
      case 'Jan':
        month = longMonths.findIndex((x) => x.toLowerCase().startsWith(v.toLowerCase())) + 1;
        break;
      case '02':
      case '2':
      case '_2':
        day = Number(v);
        break;
      case '15':
      case '03':
      case '3':
        hour = Number(v);
        break;
      case '04':
      case '4':
        minute = Number(v);
        break;
      case '05':
      case '5':
        second = Number(v);
        break;
      case 'frac':
        nanos = Number(v.padEnd(9, '0').slice(0, 9));
        break;
      case 'PM':
      case 'pm':
        pm = v.toUpperCase() === 'PM';
        break;
      default:
        if (g.includes('07')) {
          if (v === 'Z') offset = 0;
          else {
            const mm = /([+-])(\d{2}):?(\d{2})?/.exec(v)!;
            offset = (mm[1] === '-' ? -1 : 1) * (Number(mm[2]) * 3600 + Number(mm[3] ?? 0) * 60);
          }
        }
    }
  });
  if (pm !== undefined) {
    if (pm && hour < 12) hour += 12;
    if (!pm && hour === 12) hour = 0;
  }
  // Date.UTC reads years 0-99 as 1900-1999; set the year separately.
  const d0 = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  d0.setUTCFullYear(year);
  const local = d0.getTime();
  let utcMs: number;
  if (offset !== undefined) utcMs = local - offset * 1000;
  else {
    const o1 = zoneInfo(zone, local).offset;
    utcMs = local - o1 * 1000;
    const o2 = zoneInfo(zone, utcMs).offset;
    if (o2 !== o1) utcMs = local - o2 * 1000;
  }
  return new GoTime(BigInt(utcMs) * 1_000_000n + BigInt(nanos), offset !== undefined && offset === 0 ? 'UTC' : zone);
}

// --- durations

const unitNs: Record<string, bigint> = { ns: 1n, us: 1000n, µs: 1000n, μs: 1000n, ms: 1_000_000n, s: NS, m: 60n * NS, h: 3600n * NS };

/** time.ParseDuration. */
export function parseDuration(s: string): bigint {
  const orig = s;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw new FuncError(`time: invalid duration ${JSON.stringify(orig)}`);
  let totalNs = 0n;
  const re = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (s !== '') {
    const m = re.exec(s);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) throw new FuncError(`time: invalid duration ${JSON.stringify(orig)}`);
    const unit = unitNs[m[3]!]!;
    totalNs += BigInt(m[1] || '0') * unit;
    if (m[2]) {
      const frac = m[2];
      totalNs += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    }
    s = s.slice(m[0].length);
  }
  return neg ? -totalNs : totalNs;
}

/** time.Duration.String(). */
export function durationString(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < NS) {
    let prec: number;
    let unit: string;
    if (u < 1000n) return (neg ? '-' : '') + u + 'ns';
    if (u < 1_000_000n) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    out = fmtFrac(u, prec) + unit;
  } else {
    out = 's';
    out = fmtFrac(u % (60n * NS), 9) + out;
    u /= 60n * NS;
    if (u > 0n) {
      out = String(u % 60n) + 'm' + out;
      u /= 60n;
      if (u > 0n) out = String(u) + 'h' + out;
    }
  }
  return (neg ? '-' : '') + out;
}

function fmtFrac(v: bigint, prec: number): string {
  const p = 10n ** BigInt(prec);
  const whole = v / p;
  let frac = (v % p).toString().padStart(prec, '0').replace(/0+$/, '');
  if (frac !== '') frac = '.' + frac;
  return String(whole) + frac;
}

function durationRound(v: GoValue): string {
  let d = 0n;
  if (typeof v === 'string') {
    try {
      d = parseDuration(v);
    } catch {
      d = 0n;
    }
  } else if (v instanceof TypedInt && v.goType === 'int64') d = v.v;
  else if (v instanceof GoTime) d = BigInt(Date.now()) * 1_000_000n - v.ns;
  let u = d < 0n ? -d : d;
  u = BigInt.asUintN(64, u);
  const hour = 3600n * NS;
  const units: [bigint, string][] = [
    [hour * 24n * 365n, 'y'],
    [hour * 24n * 30n, 'mo'],
    [hour * 24n, 'd'],
    [hour, 'h'],
    [60n * NS, 'm'],
    [NS, 's'],
  ];
  for (const [size, name] of units) if (u > size) return String(u / size) + name;
  return '0s';
}

function toTime(v: GoValue): GoTime {
  if (v instanceof GoTime) return v;
  if (v instanceof TypedInt && (v.goType === 'int64' || v.goType === 'int32')) return new GoTime(v.v * NS, 'Local');
  if (typeof v === 'bigint') return new GoTime(v * NS, 'Local');
  return GoTime.now();
}

function dateInZone(layout: string, date: GoValue, zone: string): string {
  const t = toTime(date);
  return formatTime(t.in(validZone(zone) ? zone : 'UTC'), layout);
}

function dateModify(fmt: string, date: GoTime): GoTime {
  const d = parseDuration(fmt);
  return new GoTime(date.ns + d, date.zone);
}

export function dateFuncs(): [string, FuncDef][] {
  const toDate = (layout: string, s: string): GoTime => parseTime(layout, s, 'Local');
  return [
    ['now', def([], (() => GoTime.now()) as never)],
    ['date', def(['string', 'any'], ((f: string, d: GoValue) => dateInZone(f, d, 'Local')) as never)],
    ['dateInZone', def(['string', 'any', 'string'], dateInZone as never)],
    ['date_in_zone', def(['string', 'any', 'string'], dateInZone as never)],
    ['htmlDate', def(['any'], ((d: GoValue) => dateInZone('2006-01-02', d, 'Local')) as never)],
    ['htmlDateInZone', def(['any', 'string'], ((d: GoValue, z: string) => dateInZone('2006-01-02', d, z)) as never)],
    [
      'dateModify',
      def(['string', 'time'], ((f: string, d: GoTime) => {
        try {
          return dateModify(f, d);
        } catch {
          return d;
        }
      }) as never),
    ],
    [
      'date_modify',
      def(['string', 'time'], ((f: string, d: GoTime) => {
        try {
          return dateModify(f, d);
        } catch {
          return d;
        }
      }) as never),
    ],
    ['mustDateModify', def(['string', 'time'], dateModify as never)],
    ['must_date_modify', def(['string', 'time'], dateModify as never)],
    [
      'ago',
      def(['any'], ((d: GoValue) => {
        const t = toTime(d);
        // time.Since(t).Round(time.Second): halfway values round away from zero.
        const diff = BigInt(Date.now()) * 1_000_000n - t.ns;
        const abs = diff < 0n ? -diff : diff;
        const rounded = ((abs + NS / 2n) / NS) * NS;
        return durationString(diff < 0n ? -rounded : rounded);
      }) as never),
    ],
    [
      'toDate',
      def(['string', 'string'], ((l: string, s: string) => {
        try {
          return toDate(l, s);
        } catch {
          return new GoTime(-62135596800n * NS, 'UTC');
        }
      }) as never),
    ],
    ['mustToDate', def(['string', 'string'], toDate as never)],
    ['unixEpoch', def(['time'], ((t: GoTime) => String(floorDiv(t.ns, NS))) as never)],
    [
      'duration',
      def(['any'], ((sec: GoValue) => {
        let n = 0n;
        if (typeof sec === 'string') n = /^[+-]?\d+$/.test(sec) ? BigInt(sec) : 0n;
        else if (sec instanceof TypedInt && sec.goType === 'int64') n = sec.v;
        return durationString(BigInt.asIntN(64, n * NS));
      }) as never),
    ],
    ['durationRound', def(['any'], durationRound as never)],
  ];
}
