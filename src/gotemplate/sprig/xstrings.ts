/** huandu/xstrings' case conversions (ToCamelCase, ToSnakeCase, ToKebabCase), as sprig calls them. */
import { goToLower, goToUpper, isGoSpace } from '../values.js';

const upperRe = /^\p{Lu}$/u;
const letterRe = /^\p{L}$/u;
const numberRe = /^\p{N}$/u;
const punctRe = /^\p{P}$/u;

const isUpper = (r: string): boolean => upperRe.test(r);
const isConnector = (r: string): boolean => r === '-' || r === '_' || isGoSpace(r);
const isNumber = (r: string): boolean => numberRe.test(r);
const isPunct = (r: string): boolean => punctRe.test(r);

/** A letter that is not a CJK ideograph. */
function isAlphabet(r: string): boolean {
  if (!letterRe.test(r)) return false;
  const cp = r.codePointAt(0)!;
  if (cp < 0x3400) return true;
  if (cp >= 0x4e00 && cp <= 0x9fcc) return false;
  if (cp >= 0x3400 && cp <= 0x4d85) return false;
  if (cp >= 0x20000 && cp <= 0x2b81d) return false;
  return true;
}

export function toCamelCase(str: string): string {
  const runes = [...str];
  if (runes.length === 0) return '';
  let out = '';
  let i = 0;
  let r0 = '';
  while (i < runes.length) {
    r0 = runes[i++]!;
    if (!isConnector(r0)) {
      r0 = goToUpper(r0);
      break;
    }
    out += r0;
  }
  if (i >= runes.length) {
    // One rune after the leading connectors (or connectors only: xstrings repeats the last one).
    return out + r0;
  }
  while (i < runes.length) {
    const r1 = r0;
    r0 = runes[i++]!;
    if (isConnector(r0) && isConnector(r1)) {
      out += r1;
      continue;
    }
    if (isConnector(r1)) r0 = goToUpper(r0);
    else {
      r0 = goToLower(r0);
      out += r1;
    }
  }
  return out + r0;
}

const enum W {
  Invalid,
  Number,
  Upper,
  Alphabet,
  Connector,
  Punct,
  Other,
}

interface Word {
  wt: W;
  word: string[];
  rest: string[];
}

function nextWord(str: string[]): Word {
  if (str.length === 0) return { wt: W.Invalid, word: [], rest: [] };
  let offset = 1;
  const r = str[0]!;
  const run = (pred: (c: string) => boolean): void => {
    while (offset < str.length && pred(str[offset]!)) offset++;
  };
  let wt: W;
  if (isConnector(r)) {
    wt = W.Connector;
    run(isConnector);
  } else if (isPunct(r)) {
    wt = W.Punct;
    run(isPunct);
  } else if (isUpper(r)) {
    wt = W.Upper;
    if (offset < str.length) {
      const r2 = str[offset]!;
      if (isUpper(r2)) {
        offset++;
        run(isUpper);
        // "HTTPStatus" splits into "HTTP" and "Status".
        if (offset < str.length && isAlphabet(str[offset]!)) offset--;
      } else if (isAlphabet(r2)) {
        offset++;
        run((c) => isAlphabet(c) && !isUpper(c));
      }
    }
  } else if (isAlphabet(r)) {
    wt = W.Alphabet;
    run((c) => isAlphabet(c) && !isUpper(c));
  } else if (isNumber(r)) {
    wt = W.Number;
    run(isNumber);
  } else {
    wt = W.Other;
    run((c) => !(isConnector(c) || isAlphabet(c) || isNumber(c) || isPunct(c)));
  }
  return { wt, word: str.slice(0, offset), rest: str.slice(offset) };
}

function toLower(wt: W, word: string[], connector: string): string {
  if (wt !== W.Upper && wt !== W.Connector) return word.join('');
  let out = '';
  for (const r of word) out += isConnector(r) ? connector : isUpper(r) ? goToLower(r) : r;
  return out;
}

export function camelCaseToLowerCase(s: string, connector: string): string {
  if (s === '') return '';
  let out = '';
  let { wt, word, rest } = nextWord([...s]);
  while (rest.length > 0) {
    if (wt !== W.Connector) out += toLower(wt, word, connector);
    const prev = wt;
    const last = word;
    ({ wt, word, rest } = nextWord(rest));
    switch (prev) {
      case W.Number:
        while (wt === W.Alphabet || wt === W.Number) {
          out += toLower(wt, word, connector);
          ({ wt, word, rest } = nextWord(rest));
        }
        if (wt !== W.Invalid && wt !== W.Punct && wt !== W.Connector) out += connector;
        break;
      case W.Connector:
        out += toLower(prev, last, connector);
        break;
      case W.Punct:
        break;
      default: {
        if (wt !== W.Number) {
          if (wt !== W.Connector && wt !== W.Punct) out += connector;
          break;
        }
        if (rest.length === 0) break;
        const lastNum = word;
        ({ wt, word, rest } = nextWord(rest));
        if (wt !== W.Alphabet) {
          out += toLower(W.Number, lastNum, connector);
          if (wt !== W.Connector && wt !== W.Punct) out += connector;
          break;
        }
        out += connector + toLower(W.Number, lastNum, connector);
        while (wt === W.Alphabet || wt === W.Number) {
          out += toLower(wt, word, connector);
          ({ wt, word, rest } = nextWord(rest));
        }
        if (wt !== W.Invalid && wt !== W.Connector && wt !== W.Punct) out += connector;
      }
    }
  }
  return out + toLower(wt, word, connector);
}
