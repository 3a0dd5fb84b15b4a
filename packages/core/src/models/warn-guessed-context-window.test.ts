import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCompactionSession } from '../session/create-compaction-session.js';
import { getContextWindow } from './get-context-window.js';
import {
  GUESSED_CONTEXT_WINDOW_WARNING,
  isKnownModel,
  warnGuessedContextWindow,
} from './warn-guessed-context-window.js';

afterEach(() => vi.restoreAllMocks());

describe('provider-prefixed model ids', () => {
  it.each(['openai:gpt-5', 'openai/gpt-5', 'gpt-5', 'OpenAI:GPT-5'])('%s resolves like gpt-5', (id) => {
    expect(getContextWindow(id)).toBe(400_000);
    expect(isKnownModel(id)).toBe(true);
  });

  it.each([
    ['anthropic:claude-sonnet-4-5', 'claude-sonnet-4-5'],
    ['google-genai:gemini-2.5-pro', 'gemini-2.5-pro'],
    ['azure_openai:gpt-4o', 'gpt-4o'],
  ])('%s resolves like %s', (prefixed, plain) => {
    expect(getContextWindow(prefixed)).toBe(getContextWindow(plain));
  });

  it('keeps Ollama tags and Bedrock versions', () => {
    expect(getContextWindow('llama3.1:8b')).toBe(getContextWindow('llama-3.1'));
    expect(getContextWindow('us.anthropic.claude-sonnet-4-20250514-v1:0')).toBe(200_000);
  });
});

describe('warnGuessedContextWindow', () => {
  it('warns once per unknown model id, never for a known one', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    expect(warnGuessedContextWindow('gpt-5')).toBe(false);
    expect(warnGuessedContextWindow('acme-private-model-1')).toBe(true);
    expect(warnGuessedContextWindow('acme-private-model-1')).toBe(true);
    expect(emit).toHaveBeenCalledTimes(1);
    expect(String(emit.mock.calls[0]![0])).toContain('contextWindow');
    expect(emit.mock.calls[0]![1]).toMatchObject({ code: GUESSED_CONTEXT_WINDOW_WARNING });
  });

  it('a session with an unknown model and no contextWindow reports the guess; with one it does not', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    createCompactionSession({ sessionId: 's', model: 'acme-private-model-2', settings: { contextWindow: 32_000 } });
    expect(emit).not.toHaveBeenCalled();
    createCompactionSession({ sessionId: 's', model: 'acme-private-model-2' });
    expect(emit).toHaveBeenCalledTimes(1);
  });
});
