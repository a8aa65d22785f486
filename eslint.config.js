// ESLint for structure, not style: the layer rules of docs/architecture.md (import cycles: .dependency-cruiser.cjs).
// `npm run lint` runs both (`npm test` runs it); test/lint/layer-rules.test.ts proves each rule fails on a violation.
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// Each layer and the layers it must not import (docs/architecture.md: core <- station <- main/cli; core <- client <-
// iframe; core <- renderer, preload; and client <- renderer: the window signs through the same browser client as web
// pages).
const forbiddenLayers = {
  core: ['station', 'main', 'cli', 'client', 'iframe', 'renderer', 'preload'],
  station: ['main', 'cli', 'client', 'iframe', 'renderer', 'preload'],
  main: ['cli', 'client', 'iframe', 'renderer', 'preload'],
  cli: ['main', 'client', 'iframe', 'renderer', 'preload'],
  client: ['station', 'main', 'cli', 'iframe', 'renderer', 'preload'],
  iframe: ['station', 'main', 'cli', 'renderer', 'preload'],
  renderer: ['station', 'main', 'cli', 'iframe', 'preload'],
  preload: ['station', 'main', 'cli', 'client', 'iframe', 'renderer'],
};

const layerZones = Object.entries(forbiddenLayers).flatMap(([layer, forbidden]) =>
  forbidden.map((other) => ({
    target: `./src/${layer}`,
    from: `./src/${other}`,
    message: `Layers (docs/architecture.md): src/${layer} must not import src/${other}.`,
  })),
);

const electronImport = {
  name: 'electron',
  message: 'Only src/main and src/preload import electron; the station reaches Electron through its ports.',
};

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'dist/**'] },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.node.json', 'tsconfig.web.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [{ regex: '^node:', message: 'src/core runs in every runtime: no node:* modules.' }],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'localStorage', 'HTMLElement'].map((name) => ({
          name,
          message: 'src/core runs in every runtime: no DOM.',
        })),
      ],
    },
  },
  {
    files: ['src/station/**/*.ts', 'src/cli/**/*.ts', 'src/client/**/*.ts', 'src/iframe/**/*.ts', 'src/renderer/**/*.ts', 'src/renderer/**/*.tsx'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronImport] }] },
  },
);
