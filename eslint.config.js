// Static checks that run with `npm test` (via `npm run lint`). Syntax-level
// rules only: type-aware linting would double the check time on small CI
// machines, and `tsc` already covers types.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Sanitizers and parsers match control characters on purpose (NUL, bidi, C0).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}', 'src/tools/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // One way to raise a toast: lib/toast.ts, which loads the library with the first toast (decision 032).
      'no-restricted-imports': ['error', { paths: [{ name: 'sonner', message: 'Raise toasts through lib/toast.ts.' }] }],
    },
  },
  {
    files: ['src/web/lib/toast.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
