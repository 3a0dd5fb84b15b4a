/**
 * Lets plain `node` run this package's TypeScript sources: Node strips the
 * types itself, and this hook maps a relative `./x.js` import to `./x.ts` when
 * only the `.ts` file exists (the sources use NodeNext `.js` specifiers).
 * Load it with `node --import ./resolve-ts.mjs child.ts`.
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (/^\.\.?\//.test(specifier) && specifier.endsWith('.js') && context.parentURL?.startsWith('file:')) {
      const typescript = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      const javascript = new URL(specifier, context.parentURL);
      if (!existsSync(fileURLToPath(javascript)) && existsSync(fileURLToPath(typescript))) {
        return nextResolve(typescript.href, context);
      }
    }
    return nextResolve(specifier, context);
  },
});
