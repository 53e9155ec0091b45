import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import reactHooks from 'eslint-plugin-react-hooks'
import reactRefresh from 'eslint-plugin-react-refresh'
import tseslint from 'typescript-eslint'

const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const SHARED = ['./src/api', './src/auth', './src/components', './src/hooks', './src/lib', './src/config.ts']

export default tseslint.config(
  { ignores: ['dist', 'dist-ssr', 'node_modules', 'src/api/schema.d.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'react-refresh/only-export-components': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // bulletproof-react's import rules: one way down, from the app to features to shared code, and no cycles
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.app.json' })],
      // without these the rules read no TypeScript module and find no cycle
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // a feature does not reach into another: what two features share lives in api, components, hooks or lib
            ...FEATURES.map((feature) => ({ target: `./src/features/${feature}`, from: './src/features', except: [`./${feature}`] })),
            // features are composed by pages and layouts, never the other way round
            { target: './src/features', from: ['./src/pages', './src/layouts', './src/App.tsx'] },
            // shared code knows no feature, page or layout
            { target: SHARED, from: ['./src/features', './src/pages', './src/layouts', './src/App.tsx'] },
          ],
        },
      ],
      // lib/zod sets Zod up for the page's CSP (no eval probe); everything else imports z from there
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "Import { z } from '@/lib/zod'." }] }],
    },
  },
  { files: ['src/lib/zod.ts'], rules: { 'no-restricted-imports': 'off' } },
  {
    // bulletproof-react's API layer: screens call a feature's hooks (features/*/api, or src/api for what several
    // share), never the typed client itself. The session provider is the session's own data layer.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/api/**', 'src/features/*/api/**', 'src/auth/session.tsx', 'src/test/**', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='api']", message: 'Call the API through a hook in the feature\'s api/ folder (or src/api), not api() here.' },
      ],
    },
  },
)
