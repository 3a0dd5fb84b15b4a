import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * The built client's file for a request path (`/` → `index.html`), or undefined when
 * there is none. Paths that would leave `dir` are refused.
 */
export async function clientFile(dir: string, path: string): Promise<Response | undefined> {
  const relative = normalize(decodeURIComponent(path === '/' ? '/index.html' : path)).replace(/^([/\\])+/, '');
  const file = join(dir, relative);
  if (!file.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`)) return undefined;
  try {
    const body = await readFile(file);
    return new Response(body, {
      headers: {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      },
    });
  } catch {
    return undefined;
  }
}
