// Typed lint: the rules that catch real defects in async, I/O-heavy code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { stageImportConfigs } from './scripts/stages.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', '.cache/**', 'examples/**', 'test/golden/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  // Stages import one way (scripts/stages.mjs, docs/adr/0180-stage-imports.md).
  ...stageImportConfigs(),
  {
    files: ['src/cli/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
