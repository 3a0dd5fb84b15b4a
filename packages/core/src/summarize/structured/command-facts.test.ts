import { describe, expect, it } from 'vitest';
import { commandHead, commandOf, commandOutcome, isCheckCommand, plainCommand } from './command-facts.js';

describe('command facts', () => {
  it('reads the command of a tool input, without what only shapes its output', () => {
    expect(commandOf({ command: 'mix test 2>&1 | tail -20', description: 'Run tests' })).toEqual({
      command: 'mix test',
      description: 'Run tests',
    });
    expect(commandOf({ command: ['bash', '-lc', 'make test'] })).toEqual({ command: 'make test' });
    expect(commandOf({ command: ['git', 'status'] })).toEqual({ command: 'git status' });
    expect(commandOf({ file_path: 'x' })).toBeUndefined();
    expect(commandOf('ls')).toBeUndefined();
    expect(plainCommand('npm test > /dev/null | head -n 5')).toBe('npm test');
  });

  it('tells checks by their first words, not by paths that hold the word', () => {
    for (const command of [
      'mix test',
      'npx vitest run',
      'cargo clippy',
      'make',
      'cd app && npm run build',
      'pnpm tsc --noEmit',
    ]) {
      expect(isCheckCommand(command), command).toBe(true);
    }
    for (const command of [
      'git add test/x.exs',
      'bd close spotter-1',
      'cat build/log.txt',
      'git commit -m "fix test"',
    ]) {
      expect(isCheckCommand(command), command).toBe(false);
    }
  });

  it('reads the outcome, the failing names and the line that says what failed', () => {
    expect(commandOutcome('12 passed', false)).toEqual({ ok: true, failing: [] });
    expect(commandOutcome('Exit code 0\nok', false)).toEqual({ ok: true, exitCode: 0, failing: [] });
    const exunit = commandOutcome(
      'Exit code 2\nCompiling 4 files\n  1) test mount renders x (SpotterWeb.ReviewLiveTest)\n     test/x_test.exs:58\n2 tests, 1 failure',
      true,
    );
    expect(exunit).toMatchObject({ ok: false, exitCode: 2, failing: ['mount renders x SpotterWeb.ReviewLiveTest'] });
    expect(exunit.output).toBe('1) test mount renders x (SpotterWeb.ReviewLiveTest)');
    expect(
      commandOutcome(' FAIL  src/a.test.ts > parses\n--- FAIL: TestParse\nFAILED tests/x.py::test_y', false),
    ).toMatchObject({
      ok: true,
    });
    expect(
      commandOutcome(' FAIL  src/a.test.ts > parses\n--- FAIL: TestParse\nFAILED tests/x.py::test_y', true).failing,
    ).toEqual(['src/a.test.ts > parses', 'TestParse', 'tests/x.py::test_y']);
  });

  it('groups runs by what they run', () => {
    expect(commandHead('mix test test/a_test.exs')).toBe('mix test');
    expect(commandHead('cd /app && npm test')).toBe('npm test');
    expect(commandHead('ls')).toBe('ls');
  });
});
