import { describe, expect, it } from 'vitest';
import { intentSentences } from './intent-sentences.js';

describe('intentSentences', () => {
  it('keeps what the assistant will do or decided, skips code, chatter and questions to the user', () => {
    const text = [
      'Found it. The root cause is a stale build of `ash_sqlite`.',
      "I'll add `:state` to Annotation because the review page filters on it.",
      '```elixir\nLet me = "not prose"\n```',
      'Great!',
      'Let me know if you want me to continue.',
      'We used Ecto instead of raw SQL so that the migration stays portable.',
    ].join('\n');
    expect(intentSentences(text)).toEqual([
      'The root cause is a stale build of `ash_sqlite`.',
      "I'll add `:state` to Annotation because the review page filters on it.",
      'We used Ecto instead of raw SQL so that the migration stays portable.',
    ]);
  });
});
