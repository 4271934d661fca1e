/**
 * The command registry (src/cli/commands/table.ts): a run loads one command by name, help and
 * completion load them all (src/cli/commands/index.ts); both are the same commands.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commands } from '../../src/cli/commands/index.js';
import { commandNames, loadCommand } from '../../src/cli/commands/table.js';

test('every command loaded by name is the one help lists, in the same order', async () => {
  assert.deepEqual(
    commands.map((c) => c.name),
    commandNames,
  );
  for (const c of commands) {
    const one = await loadCommand(c.name)!;
    const { run: _run, ...spec } = one;
    const { run: _listed, ...listed } = c;
    assert.deepEqual(spec, listed, c.name);
  }
});

test('a name that is no command loads nothing', () => {
  assert.equal(loadCommand('paln'), undefined);
  assert.equal(loadCommand('constructor'), undefined);
  assert.equal(loadCommand('toString'), undefined);
});
