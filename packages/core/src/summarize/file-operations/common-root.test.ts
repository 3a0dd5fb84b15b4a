import { describe, expect, it } from 'vitest';
import { commonRoot } from './common-root.js';

describe('commonRoot', () => {
  it('the deepest folder every absolute path is under, for two or more paths', () => {
    expect(commonRoot(['/home/me/app/lib/a.ex', '/home/me/app/test/b.exs'])).toBe('/home/me/app/');
    expect(commonRoot(['/home/me/app/a.ex'])).toBeUndefined();
    expect(commonRoot(['/a/b.ts', '/c/d.ts'])).toBeUndefined();
    expect(commonRoot(['/home/me/app/a.ts', 'relative/b.ts'])).toBeUndefined();
  });
});
