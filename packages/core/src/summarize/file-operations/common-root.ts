/**
 * The deepest folder (ending in `/`) every path is under, when there are two or more paths, all
 * absolute, and the folder is at least two levels deep (`/home/me/`); otherwise undefined.
 */
export function commonRoot(paths: readonly string[]): string | undefined {
  const absolute = paths.filter((path) => path.startsWith('/'));
  if (absolute.length < 2 || absolute.length < paths.length) return undefined;
  let root = absolute[0]!.slice(0, absolute[0]!.lastIndexOf('/') + 1);
  for (const path of absolute) {
    while (root && !path.startsWith(root)) root = root.slice(0, root.slice(0, -1).lastIndexOf('/') + 1);
  }
  return root.split('/').length > 3 ? root : undefined;
}
