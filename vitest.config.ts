import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Every workspace package runs from source: no build is needed to test. */
const alias = {
  // Subpaths first: an alias also matches what starts with its key and a slash.
  '@compaction/core/internal': fileURLToPath(new URL('./packages/core/src/internal/index.ts', import.meta.url)),
  '@compaction/core/testing': fileURLToPath(new URL('./packages/core/src/testing/index.ts', import.meta.url)),
  ...Object.fromEntries(
    ['core', 'ai-sdk', 'langchain', 'mastra', 'claude-code-import', 'postgres', 'redis'].map((name) => [
      `@compaction/${name}`,
      fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url)),
    ]),
  ),
};

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'core', root: './packages/core', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'ai-sdk', root: './packages/ai-sdk', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'langchain', root: './packages/langchain', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'mastra', root: './packages/mastra', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'claude-code-import',
          root: './packages/claude-code-import',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        },
      },
      {
        extends: true,
        // Real PostgreSQL and Redis on loopback, installed and started when missing.
        test: {
          name: 'postgres',
          root: './packages/postgres',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          globalSetup: ['./test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'redis',
          root: './packages/redis',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          globalSetup: ['./test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'benchmarks', root: './benchmarks', include: ['src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'demo', root: './apps/demo', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'web', root: './apps/web', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        extends: true,
        // The README examples run with the providers swapped for the frameworks' test models.
        resolve: {
          alias: {
            '@ai-sdk/openai': fileURLToPath(
              new URL('./readme-examples/src/substitutes/ai-sdk-openai.ts', import.meta.url),
            ),
            '@langchain/openai': fileURLToPath(
              new URL('./readme-examples/src/substitutes/langchain-openai.ts', import.meta.url),
            ),
          },
        },
        test: { name: 'readme', root: './readme-examples', include: ['src/**/*.test.ts'] },
      },
    ],
  },
  resolve: { alias },
});
