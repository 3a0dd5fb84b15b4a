import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Example } from './extract-examples.js';
import { REPO_ROOT } from './find-readmes.js';
import { workspaceSources } from './workspace-sources.js';

/** Where the examples are written as files (git-ignored): inside this package, so they resolve its dependencies. */
export const EXAMPLES_DIR = join(REPO_ROOT, 'readme-examples', '.examples');

/** An example written as a module file. */
export type ExampleFile = Example & { file: string };

/** The compiler options a user's strict project would have. */
export const EXAMPLE_COMPILER_OPTIONS = {
  target: 'es2023',
  lib: ['es2023', 'dom'],
  module: 'nodenext',
  moduleResolution: 'nodenext',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['node'],
  jsx: 'react-jsx',
} as const;

/** The file name of an example: its README's path and line (`packages__core__README.md-L17.ts`; `.tsx` for a `tsx` block). */
export function exampleFileName(example: Example): string {
  return `${example.readme.replaceAll('/', '__')}-L${example.line}.${example.jsx ? 'tsx' : 'ts'}`;
}

/**
 * Writes every example as its own module (`export {}` appended, so that blocks
 * never share a scope) and a tsconfig over them, in a fresh `EXAMPLES_DIR`.
 * The code keeps its lines: line N of the file is line `example.line + N − 1` of the README.
 */
export function writeExamples(examples: readonly Example[]): ExampleFile[] {
  rmSync(EXAMPLES_DIR, { recursive: true, force: true });
  mkdirSync(EXAMPLES_DIR, { recursive: true });
  const paths = Object.fromEntries(
    Object.entries(workspaceSources()).map(([name, source]) => [name, [relative(EXAMPLES_DIR, source)]]),
  );
  writeFileSync(
    join(EXAMPLES_DIR, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...EXAMPLE_COMPILER_OPTIONS, paths }, include: ['*.ts', '*.tsx'] }, null, 2),
  );
  return examples.map((example) => {
    const file = join(EXAMPLES_DIR, exampleFileName(example));
    writeFileSync(file, `${example.code}\nexport {};\n`);
    return { ...example, file };
  });
}

/** A compiler error, located in the README. */
export type ExampleDiagnostic = { readme: string; line: number; column: number; message: string };

/**
 * Type-checks all written examples in one `tsc` run and returns the errors of
 * each example, by file. Errors inside the workspace's own sources (checked
 * here under stricter options than their own) are not the examples' and are left out.
 */
export function typecheckExamples(files: readonly ExampleFile[]): Map<string, ExampleDiagnostic[]> {
  const tsc = join(EXAMPLES_DIR, '..', 'node_modules', '.bin', 'tsc');
  const run = spawnSync(tsc, ['-p', join(EXAMPLES_DIR, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: EXAMPLES_DIR,
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  const byName = new Map(files.map((file) => [relative(EXAMPLES_DIR, file.file), file]));
  const diagnostics = new Map<string, ExampleDiagnostic[]>(files.map((file) => [file.file, []]));
  let last: ExampleDiagnostic[] | undefined;
  for (const line of `${run.stdout}${run.stderr}`.split('\n')) {
    const located = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line);
    if (located) {
      const example = byName.get(located[1]!);
      last = example ? diagnostics.get(example.file) : undefined;
      last?.push({
        readme: example!.readme,
        line: example!.line + Number(located[2]) - 1,
        column: Number(located[3]),
        message: located[4]!,
      });
    } else if (last && /^\s+/.test(line) && last.length > 0) {
      last[last.length - 1]!.message += `\n${line.trim()}`; // a continued message
    } else if (line.trim() !== '') {
      last = undefined;
    }
  }
  if (
    run.status !== 0 &&
    [...diagnostics.values()].every((list) => list.length === 0) &&
    !/\): error /.test(run.stdout)
  ) {
    throw new Error(`tsc failed without diagnostics:\n${run.stdout}${run.stderr}`);
  }
  return diagnostics;
}
