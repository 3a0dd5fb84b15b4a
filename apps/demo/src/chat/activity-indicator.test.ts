import { describe, expect, it } from 'vitest';
import { createActivityIndicator } from './activity-indicator.js';

describe('createActivityIndicator', () => {
  it('draws the label with the seconds elapsed on a terminal, redraws it, and clears the line when stopped', async () => {
    let written = '';
    let clock = 1_000;
    const indicator = createActivityIndicator(
      { isTTY: true, write: (text: string) => (written += text) },
      { intervalMs: 5, now: () => clock },
    );
    indicator.start('waiting for test-model');
    expect(written).toBe('\r\u001b[2K⠋ waiting for test-model… 0.0 s');
    clock += 2_400;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(written).toContain('waiting for test-model… 2.4 s');
    indicator.start('compacting the conversation');
    expect(written.endsWith('compacting the conversation… 2.4 s')).toBe(true);
    indicator.stop();
    expect(written.endsWith('\r\u001b[2K')).toBe(true);
    const after = written.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written.length).toBe(after);
    indicator.stop();
    expect(written.length).toBe(after);
  });

  it('writes nothing when the stream is not a terminal', async () => {
    let written = '';
    const indicator = createActivityIndicator({ write: (text: string) => (written += text) }, { intervalMs: 1 });
    indicator.start('waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
    indicator.stop();
    expect(written).toBe('');
  });
});
