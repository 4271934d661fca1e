/**
 * Case folding in templates as Go folds: strings.ToUpper, ToLower and Title and sprig's upper,
 * lower, title, swapcase, camelcase (goutils, xstrings) map one rune to one rune with Unicode's
 * simple mappings (ß stays ß, ᾳ is ᾼ, ǆ's title case is ǅ, Georgian's title case is itself, Σ is σ
 * wherever it stands), and Go's unicode.IsSpace has no U+FEFF. Recorded with Go 1.19's text/template
 * and sprig 3.2.3 (bench/go-gotemplate-oracle, fed these templates); ADR 0414.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGoTemplate, goValueFromJsonArgoCD } from '../../src/gotemplate/index.js';
import { goRuneTitle, goRuneUpper } from '../../src/gotemplate/values.js';

// [function, input, Go's output]
const VECTORS: [string, string, string][] = [
  ['upper', 'straße', 'STRAßE'],
  ['lower', 'straße', 'straße'],
  ['title', 'straße', 'Straße'],
  ['swapcase', 'straße', 'STRAßE'],
  ['camelcase', 'straße', 'Straße'],
  ['upper', 'ǆemal ǉubljana ǳ', 'ǄEMAL ǇUBLJANA Ǳ'],
  ['lower', 'ǆemal ǉubljana ǳ', 'ǆemal ǉubljana ǳ'],
  ['title', 'ǆemal ǉubljana ǳ', 'ǅemal ǈubljana ǲ'],
  ['swapcase', 'ǆemal ǉubljana ǳ', 'ǅEMAL ǈUBLJANA ǲ'],
  ['camelcase', 'ǆemal ǉubljana ǳ', 'ǄemalǇubljanaǱ'],
  ['upper', 'ᾀᾳ ᾳb', 'ᾈᾼ ᾼB'],
  ['lower', 'ᾀᾳ ᾳb', 'ᾀᾳ ᾳb'],
  ['title', 'ᾀᾳ ᾳb', 'ᾈᾳ ᾼb'],
  ['swapcase', 'ᾀᾳ ᾳb', 'ᾈᾼ ᾼB'],
  ['camelcase', 'ᾀᾳ ᾳb', 'ᾈᾳᾼb'],
  ['upper', 'ΟΔΟΣ ΣΑΣ', 'ΟΔΟΣ ΣΑΣ'],
  ['lower', 'ΟΔΟΣ ΣΑΣ', 'οδοσ σασ'],
  ['title', 'ΟΔΟΣ ΣΑΣ', 'ΟΔΟΣ ΣΑΣ'],
  ['swapcase', 'ΟΔΟΣ ΣΑΣ', 'οδοσ σασ'],
  ['camelcase', 'ΟΔΟΣ ΣΑΣ', 'ΟδοσΣασ'],
  ['upper', 'İstanbul ıi', 'İSTANBUL II'],
  ['lower', 'İstanbul ıi', 'istanbul ıi'],
  ['title', 'İstanbul ıi', 'İstanbul Ii'],
  ['swapcase', 'İstanbul ıi', 'iSTANBUL II'],
  ['camelcase', 'İstanbul ıi', 'İstanbulIi'],
  ['upper', 'ﬀoo ŉ ǰ', 'ﬀOO ŉ ǰ'],
  ['lower', 'ﬀoo ŉ ǰ', 'ﬀoo ŉ ǰ'],
  ['title', 'ﬀoo ŉ ǰ', 'ﬀoo ŉ ǰ'],
  ['swapcase', 'ﬀoo ŉ ǰ', 'ﬀOO ŉ ǰ'],
  ['camelcase', 'ﬀoo ŉ ǰ', 'ﬀooŉǰ'],
  ['upper', 'აბგ დე', 'ᲐᲑᲒ ᲓᲔ'],
  ['lower', 'აბგ დე', 'აბგ დე'],
  ['title', 'აბგ დე', 'აბგ დე'],
  ['swapcase', 'აბგ დე', 'აᲑᲒ დᲔ'],
  ['camelcase', 'აბგ დე', 'ᲐბგᲓე'],
  ['upper', 'Ǆ ǈ ǲ', 'Ǆ Ǉ Ǳ'],
  ['lower', 'Ǆ ǈ ǲ', 'ǆ ǉ ǳ'],
  ['title', 'Ǆ ǈ ǲ', 'ǅ ǈ ǲ'],
  ['swapcase', 'Ǆ ǈ ǲ', 'ǆ ǉ ǳ'],
  ['camelcase', 'Ǆ ǈ ǲ', 'ǄǇǱ'],
  ['upper', 'a\ufeffb c', 'A\ufeffB C'],
  ['lower', 'a\ufeffb c', 'a\ufeffb c'],
  ['title', 'a\ufeffb c', 'A\ufeffb C'],
  ['swapcase', 'a\ufeffb c', 'A\ufeffB C'],
  ['untitle', 'a\ufeffb c', 'a\ufeffb c'],
  ['camelcase', 'a\ufeffb c', 'A\ufeffbC'],
  ['snakecase', 'a\ufeffb c', 'a_\ufeff_b_c'],
  ['kebabcase', 'a\ufeffb c', 'a-\ufeff-b-c'],
  ['upper', 'ƛ ɤ', 'ƛ ɤ'],
  ['lower', 'ƛ ɤ', 'ƛ ɤ'],
  ['title', 'ƛ ɤ', 'ƛ ɤ'],
  ['swapcase', 'ƛ ɤ', 'ƛ ɤ'],
  ['camelcase', 'ƛ ɤ', 'ƛɤ'],
];

test('upper, lower, title, swapcase and camelcase fold as Go and sprig do', () => {
  const failures: string[] = [];
  for (const [fn, input, go] of VECTORS) {
    const got = compileGoTemplate(`{{ ${fn} .s }}`).execute(goValueFromJsonArgoCD({ s: input }));
    if (got !== go) failures.push(`${fn} ${JSON.stringify(input)}: Go ${JSON.stringify(go)}, fleetplan ${JSON.stringify(got)}`);
  }
  assert.deepEqual(failures, []);
});

test('case pairs newer than the Unicode of Go 1.21 and later (15.0) are none; older ones hold', () => {
  // Unicode 14 (in Go from 1.21): Glagolitic caudate chrivi. Unicode 16 (not in Go): ƛ → Ƛ, ɤ → Ɤ, Cyrillic tje.
  assert.equal(goRuneUpper('\u2c5f'), '\u2c2f');
  for (const r of ['\u019b', '\u0264', '\u1c8a']) assert.equal(goRuneUpper(r), r, r);
  // unicode.ToTitle: the digraphs' title forms, Georgian Mkhedruli unchanged, otherwise the upper case.
  assert.deepEqual(['\u01c4', '\u01c6', '\u01c9', '\u01cc', '\u01f1', '\u10d0', 'a', '\u1f80'].map(goRuneTitle), ['\u01c5', '\u01c5', '\u01c8', '\u01cb', '\u01f2', '\u10d0', 'A', '\u1f88']);
});
