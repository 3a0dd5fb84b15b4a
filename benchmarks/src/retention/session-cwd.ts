/** The working directory of a Claude Code transcript: the `cwd` of its first record that has one. */
export function sessionCwd(jsonl: string): string | undefined {
  for (const line of jsonl.split('\n')) {
    if (!line.includes('"cwd"')) continue;
    try {
      const record = JSON.parse(line) as { cwd?: unknown };
      if (typeof record.cwd === 'string' && record.cwd) return record.cwd;
    } catch {
      // A malformed line says nothing about the directory; the importer reports it.
    }
  }
  return undefined;
}
