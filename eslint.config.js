import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', 'server/drizzle/**', '**/dev-dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Features stay independent: shared code flows lib/components -> features -> app.
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../../features/*', '../features/*'], message: 'Features do not import each other.' }] },
      ],
    },
  },
  {
    files: ['bench/**', 'scripts/**', 'e2e/**', 'server/src/main.ts', 'server/src/scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
