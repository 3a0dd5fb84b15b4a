// Lets a plain `node` child process run the workspace's TypeScript sources (Node 24 strips
// types itself): `.js` specifiers that name a `.ts` source resolve to it, and the
// `@compaction/*` packages resolve to their `src/index.ts`, as the vitest aliases do.
// Use: node --import <this file> worker.ts
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const packages = fileURLToPath(new URL('../../../', import.meta.url));
const workspace = new Map(
  ['core', 'ai-sdk', 'langchain', 'mastra', 'postgres', 'redis'].map((name) => [
    `@compaction/${name}`,
    pathToFileURL(`${packages}${name}/src/index.ts`).href,
  ]),
);

registerHooks({
  resolve(specifier, context, nextResolve) {
    const source = workspace.get(specifier);
    if (source) return { url: source, shortCircuit: true };
    if (specifier.endsWith('.js') && (specifier.startsWith('.') || specifier.startsWith('/')) && context.parentURL) {
      const candidate = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      if (!existsSync(fileURLToPath(new URL(specifier, context.parentURL))) && existsSync(fileURLToPath(candidate))) {
        return { url: candidate.href, shortCircuit: true };
      }
    }
    return nextResolve(specifier, context);
  },
});
