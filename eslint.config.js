import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Web layering (bulletproof-react): imports across folders go through the '@/' alias, so they can be checked.
const webUpward = { regex: '^(\\.\\./){2,}', message: "Import from another folder with '@/...'." };
const webSharedDependsOnLayers = {
  regex: '^@/(features|app)(/|$)',
  message: 'lib/ and components/ are shared: they never import features or the app.',
};
const webFeatureReachesOut = {
  regex: '^@/(features|app)(/|$)',
  message: 'Features do not import each other or the app; inside a feature use relative paths.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/data/**',
      'server/drizzle/**',
      '**/dev-dist/**',
      '.stryker-tmp/**',
      // The vendored PostgreSQL driver stays as published, apart from its marked fix (decision 040).
      'vendor/**',
    ],
  },
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
      'no-restricted-imports': ['error', { patterns: [webUpward] }],
    },
  },
  // Shared code flows one way: lib/components -> features -> app. Features do not import each other.
  {
    files: ['web/src/lib/**/*.{ts,tsx}', 'web/src/components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [webUpward, webSharedDependsOnLayers] }] },
  },
  {
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [webUpward, webFeatureReachesOut] }] },
  },
  {
    // A file at the top of a feature leaves it with a single '../'.
    files: ['web/src/features/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [webFeatureReachesOut, { regex: '^\\.\\./', message: webFeatureReachesOut.message }] },
      ],
    },
  },
  {
    files: ['bench/**', 'scripts/**', 'e2e/**', 'server/src/main.ts', 'server/src/scripts/**'],
    rules: { 'no-console': 'off' },
  },
  // Small units (issue 45): a file a reader can hold in mind, a function that does one thing.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    // A test's describe callback holds its cases, so tests are held to the file cap, not a function cap.
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] },
  },
  // The text catalogue and the code tables are data: long by nature, reviewed as lists.
  {
    files: [
      'packages/contract/src/ja.ts',
      'packages/contract/src/ja-member.ts',
      'packages/contract/src/tables/**',
    ],
    rules: { 'max-lines': 'off' },
  },
);
