import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginLingui from 'eslint-plugin-lingui';
import globals from 'globals';

/**
 * The web app's code that shows words (issue 43): every user-facing string goes through Lingui, so a string left out
 * of the catalogues fails the lint here. Not the tests, nor the boot scripts and the service worker (no words of
 * their own: the pushes' words are the server's).
 */
const TRANSLATED = [
  'apps/web/src/app/**/*.{ts,tsx}',
  'apps/web/src/ui/**/*.{ts,tsx}',
  'apps/web/src/lib/**/*.{ts,tsx}',
  'apps/web/src/features/**/*.{ts,tsx}',
];
const NOT_TRANSLATED = ['**/*.test.{ts,tsx}'];

/** What is not a person's words: names of things in code (classes, ids, keys, paths, media types, CSS). */
const NOT_WORDS = {
  ignore: ['^(?![A-Z])[^\\s]+$', '^[A-Z0-9_./:-]+$', '^https?://', '^[^A-Za-z]*$'],
  ignoreNames: [
    'className',
    'key',
    'id',
    'type',
    'to',
    'href',
    'src',
    'rel',
    'as',
    'variant',
    'size',
    'role',
    'name',
    'autoComplete',
    'inputMode',
    'lang',
    'dir',
    'target',
    'method',
    'mode',
    'encType',
    'accept',
    'htmlFor',
    'd',
    'viewBox',
    'fill',
    'stroke',
    'loading',
    'decoding',
    'fetchPriority',
    'sizes',
    'srcSet',
    'pattern',
    'displayName',
    { regex: { pattern: '^[A-Z0-9_]+$' } },
    { regex: { pattern: '^data-' } },
    { regex: { pattern: 'ClassName$' } },
    { regex: { pattern: '(Key|Path|Url|Id)$' } },
  ],
  ignoreFunctions: [
    'console.*',
    'Error',
    '*.addEventListener',
    '*.removeEventListener',
    'document.*',
    '*.querySelector',
    '*.querySelectorAll',
    '*.getItem',
    '*.setItem',
    '*.removeItem',
    '*.get',
    '*.set',
    '*.has',
    '*.append',
    '*.delete',
    'URL',
    'URLSearchParams',
    'matchMedia',
    '*.matchMedia',
    'useRouteFlag',
    'navigate',
    '*.startsWith',
    '*.endsWith',
    '*.includes',
    '*.split',
    '*.join',
    '*.replace',
    '*.setAttribute',
    '*.getAttribute',
    '*.toLocaleString',
    'Intl.*',
    'apiClient.*',
    'fetch',
    'useSearchParams',
    'import',
    'styles.*',
    '*.createElement',
    '*.matches',
  ],
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-ssr/**',
      '**/node_modules/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: TRANSLATED,
    ignores: NOT_TRANSLATED,
    plugins: { lingui: pluginLingui },
    rules: {
      'lingui/no-unlocalized-strings': ['error', NOT_WORDS],
      'lingui/t-call-in-function': 'error',
      'lingui/no-single-variables-to-translate': 'error',
      'lingui/no-trans-inside-trans': 'error',
    },
  },
  {
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
