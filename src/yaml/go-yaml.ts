/**
 * go-yaml v2's reading of YAML 1.1, for Argo CD's template functions (`fromYaml` and friends):
 * booleans yes/no/on/off, Go integer literals, timestamps kept as strings.
 */
import jsYaml from 'js-yaml';


/** Parses a Go integer literal (0x…, 0o…, 0b…, 0777), or undefined: the template engine's own strconv. */
export type GoIntParser = (s: string) => bigint | undefined;

/** YAML 1.1 booleans (yes/no/on/off…), as go-yaml v2 reads them. */
const bool11 = new jsYaml.Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (s: string) => /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/.test(s),
  construct: (s: string) => /^(y|Y|yes|Yes|YES|true|True|TRUE|on|On|ON)$/.test(s),
  predicate: (v: unknown) => typeof v === 'boolean',
  represent: { lowercase: (v: unknown) => (v ? 'true' : 'false') },
  defaultStyle: 'lowercase',
});
/** go-yaml v2's integers: Go literal syntax with underscores (0x…, 0o…, 0b…, 0777 octal). */
const int11 = (parseGoInt: GoIntParser) => new jsYaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (s: string) => /^[-+]?[0-9]/.test(s) && goInt(parseGoInt, s) !== undefined,
  construct: (s: string) => Number(goInt(parseGoInt, s)!),
  predicate: (v: unknown) => typeof v === 'number' && Number.isInteger(v),
  represent: { decimal: (v: unknown) => String(v) },
  defaultStyle: 'decimal',
});

function goInt(parseGoInt: GoIntParser, s: string): bigint | undefined {
  const v = parseGoInt(s.replace(/_/g, ''));
  return v !== undefined && v >= -(1n << 63n) && v < 1n << 64n ? v : undefined;
}

/** Timestamps stay strings: go-yaml v2 gives a string for a timestamp decoded into interface{}. */
const noTimestamp = new jsYaml.Type('tag:yaml.org,2002:timestamp', { kind: 'scalar', resolve: () => false });

// The default schema (with merge keys) with booleans, integers and timestamps as go-yaml v2 reads
// them (a type with the same tag and kind replaces the earlier one).


/** The default schema (with merge keys) with booleans, integers and timestamps as go-yaml v2 reads them. */
export function goYamlV2Schema(parseGoInt: GoIntParser): jsYaml.Schema {
  // A type with the same tag and kind replaces the earlier one.
  return jsYaml.DEFAULT_SCHEMA.extend({ implicit: [bool11, int11(parseGoInt), noTimestamp] });
}
