import { describe, expect, it } from 'vitest';
import { codeIdentifiers } from './code-identifiers.js';

describe('codeIdentifiers', () => {
  it('finds dotted, slashed, snake_case, camelCase names and flags, once each', () => {
    expect(
      codeIdentifiers(
        'Edited `lib/app.ex`: added handle_event/3 to MyApp.Live and getSelection(); ran mix compile --force; `:state` is 0.5rem; lib/app.ex again',
      ),
    ).toEqual(['lib/app.ex', 'handle_event/3', 'MyApp.Live', 'getSelection', '--force']);
  });

  it('reads numbered listings (`12→def x`) and skips plain words and numbers', () => {
    expect(codeIdentifiers('    12→defmodule Foo.Bar do\n    13→  def run_all')).toEqual(['Foo.Bar', 'run_all']);
    expect(codeIdentifiers('the state is fine 1.2.3 v2 ok')).toEqual([]);
  });
});
