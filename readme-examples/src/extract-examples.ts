/** How an example is tested. */
export type ExampleMode = 'run' | 'typecheck-only' | 'run-only';

/** One TypeScript code block of a markdown file. */
export type Example = {
  /** The markdown file, relative to the repository root. */
  readme: string;
  /** Line (1-based) of the block's first code line in the markdown file. */
  line: number;
  code: string;
  /**
   * `run` (the default): type-checked, then run. `typecheck-only`: preceded by
   * `<!-- readme-example: typecheck-only — reason -->`, for code that cannot run
   * in a test (it listens on a port, or needs a service). `run-only`: preceded by
   * `<!-- readme-example: run-only — reason -->`, for a peer library's code whose
   * own types fail under the strict options (run, its compiler errors not asserted).
   */
  mode: ExampleMode;
  /** Why it is not run (the marker's text after the mode). */
  reason?: string;
  /** A `tsx` block: written as a `.tsx` module, its JSX checked as React's (`jsx: 'react-jsx'`). */
  jsx?: true;
};

/** A fenced block: the opening fence, its info string, the code. */
export type Fence = { info: string; line: number; code: string };

const MARKER = /<!--\s*readme-example:\s*(typecheck-only|run-only)\s*(?:[—:-]\s*(.*?))?\s*-->/;

/** Every fenced code block (``` or ~~~) of a markdown text, with its info string. */
export function fencedBlocks(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const blocks: Fence[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(lines[index]!);
    if (!open) continue;
    const [, indent = '', fence = '```', info = ''] = open;
    const code: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const line = lines[end]!;
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') break;
      code.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    blocks.push({ info: info.trim(), line: index + 2, code: code.join('\n') });
    index = end;
  }
  return blocks;
}

/**
 * The TypeScript examples of a markdown file: blocks whose info string starts
 * with `ts`, `tsx` or `typescript`. A block preceded (blank lines aside) by
 * `<!-- readme-example: typecheck-only — reason -->` is only type-checked.
 */
export function extractExamples(readme: string, markdown: string): Example[] {
  const lines = markdown.split('\n');
  return fencedBlocks(markdown)
    .filter((block) => /^(tsx?|typescript)\b/.test(block.info))
    .map((block) => {
      const jsx = /^tsx\b/.test(block.info) ? { jsx: true as const } : {};
      let previous = block.line - 3; // the line before the opening fence (0-based)
      while (previous >= 0 && lines[previous]!.trim() === '') previous -= 1;
      const marker = previous >= 0 ? MARKER.exec(lines[previous]!) : null;
      return marker
        ? {
            readme,
            line: block.line,
            code: block.code,
            mode: marker[1] as ExampleMode,
            reason: marker[2] ?? '',
            ...jsx,
          }
        : { readme, line: block.line, code: block.code, mode: 'run' as const, ...jsx };
    });
}

/** The packages an example imports (`ai`, `@ai-sdk/openai`, not `node:fs` or relative paths). */
export function importedPackages(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(/(?:^|\n)\s*import\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g)) {
    const specifier = match[1]!;
    if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
  }
  return [...names].sort();
}

/** The packages the install commands (`npm install …`, `pnpm add …`, `yarn add …`) of a markdown file name. */
export function installedPackages(markdown: string): string[] {
  const names = new Set<string>();
  for (const block of fencedBlocks(markdown)) {
    if (!/^(sh|bash|shell|console)?$/.test(block.info.split(/\s/)[0] ?? '')) continue;
    for (const line of block.code.split('\n')) {
      const command =
        /^\s*\$?\s*(?:npm\s+(?:install|i|add)|pnpm\s+(?:add|install|i)|yarn\s+add|bun\s+add)\s+(.*)$/.exec(line);
      if (!command) continue;
      for (const word of command[1]!.split(/\s+/)) {
        if (word.startsWith('#')) break;
        if (word === '' || word.startsWith('-')) continue;
        names.add(word.replace(/(.)@[^/]*$/, '$1'));
      }
    }
  }
  return [...names].sort();
}
