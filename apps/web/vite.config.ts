import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The browser client. `@compaction/ai-sdk/ui` comes from source (types and pure
 * helpers, no `node:` imports), so the client builds without building the package first.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src/client', import.meta.url)),
  base: '/',
  resolve: {
    alias: {
      '@compaction/ai-sdk/ui': fileURLToPath(new URL('../../packages/ai-sdk/src/ui/index.ts', import.meta.url)),
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    reportCompressedSize: false,
    rolldownOptions: {
      // React libraries mark modules 'use client'; a client-only bundle has nothing to keep it for.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  logLevel: 'warn',
});
