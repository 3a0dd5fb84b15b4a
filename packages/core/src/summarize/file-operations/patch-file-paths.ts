const CODEX_HEADER = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/;
const CODEX_MOVE = /^\*\*\* Move to: (.+)$/;
const OLD_HEADER = /^--- (.+)$/;
const NEW_HEADER = /^\+\+\+ (.+)$/;

/**
 * The files a patch touches, from its headers: `*** Update File: x`, `*** Add File: x`,
 * `*** Delete File: x`, `*** Move to: y` (the `apply_patch` format) and `--- a/x` / `+++ b/x`
 * (unified diff; `a/` `b/` prefixes, timestamps and `/dev/null` are dropped).
 *
 * @example
 * ```ts
 * patchFilePaths('*** Begin Patch\n*** Update File: src/app.ts\n@@\n-a\n+b\n*** End Patch');
 * // ['src/app.ts']
 * ```
 */
export function patchFilePaths(patch: string): string[] {
  const paths: string[] = [];
  const lines = patch.split('\n').map((line) => line.replace(/\r$/, ''));
  for (const [index, line] of lines.entries()) {
    const codex = CODEX_HEADER.exec(line) ?? CODEX_MOVE.exec(line);
    if (codex?.[1]) {
      paths.push(codex[1].trim());
      continue;
    }
    // A unified header is a `---` line directly followed by a `+++` line; a removed line
    // inside a hunk that happens to start with `-- ` is not one.
    const oldHeader = OLD_HEADER.exec(line);
    const newHeader = NEW_HEADER.exec(lines[index + 1] ?? '');
    if (oldHeader?.[1] && newHeader?.[1]) {
      for (const header of [oldHeader[1], newHeader[1]]) {
        const path = unifiedPath(header);
        if (path) paths.push(path);
      }
    }
  }
  return [...new Set(paths)].filter((path) => path.length > 0);
}

function unifiedPath(header: string): string | undefined {
  // `--- a/src/x.ts\t2024-01-01 10:00:00` → `src/x.ts`
  const path = header.split('\t')[0]?.trim() ?? '';
  if (path === '/dev/null' || path === '' || path.startsWith('-') || path.startsWith('+')) return undefined;
  return path.replace(/^[ab]\//, '');
}
