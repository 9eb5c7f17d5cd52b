// @ts-check
// The one ESLint config of the workspace (STYLE.md, Tooling): `pnpm lint` runs it with zero
// warnings allowed. Formatting is Prettier's job, so eslint-config-prettier comes last.
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import astro from 'eslint-plugin-astro'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Where React runs in a browser: the site's islands and components, and the console app. */
const reactFiles = ['site/**/*.tsx', 'console/src/app/**/*.tsx']

export default defineConfig([
  globalIgnores(['**/dist/', '**/dist.staging/', '**/dist.previous/', '.astro/', '.data/', '.lighthouseci/']),

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // Each file is checked with the tsconfig that owns it: the root one, or site/'s.
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      // Off: an async function without await still turns a throw into a rejection, which the
      // Promise-returning interfaces it implements (stores, providers, Astro hooks) rely on.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts', 'scripts/bench/**/*.ts'],
    rules: {
      // Relaxed in tests: they read JSON answers as any and check them with expect(), which fails
      // on a wrong shape as surely as a type would.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Relaxed in tests: a stand-in server's async handler that throws fails the test as an
      // unhandled rejection, which is what a test wants.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },

  // .astro files: the plugin's parser reads their frontmatter and expressions as TypeScript, but
  // no tsconfig can hold them, so the rules that need types stay with the .ts files.
  astro.configs.recommended,
  astro.configs['jsx-a11y-recommended'],
  { files: ['**/*.astro'], extends: [tseslint.configs.disableTypeChecked] },

  {
    files: reactFiles,
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['site/islands/**/*.ts', 'site/integrations/search-directive.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The configs are JavaScript, and the Deno entry of the edge function is in no tsconfig (its
    // Deno types are not installed): both are linted without types.
    files: ['*.js', '*.mjs', 'supabase/functions/*/index.ts'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { Deno: 'readonly' } },
  },

  prettier,
])
