import type { PromptToolResultOutput } from './ai-sdk-types.js';

/** A tool output as core holds it: the bare value, with errors flagged. */
export type CoreToolOutput = { output: unknown; isError?: boolean };

/**
 * Unwraps an AI SDK tool output (`{ type: 'text' | 'json' | 'error-text' | … }`)
 * into the bare value core counts and summarizes: text stays text (no JSON
 * escaping of file contents), errors are flagged, a denial becomes a sentence.
 */
export function toolOutputToCore(output: { type: string; value?: unknown; reason?: string }): CoreToolOutput {
  switch (output.type) {
    case 'error-text':
    case 'error-json':
      return { output: output.value, isError: true };
    case 'execution-denied':
      return {
        output: output.reason ? `Tool execution denied: ${output.reason}` : 'Tool execution denied.',
        isError: true,
      };
    default:
      return { output: output.value };
  }
}

/**
 * Wraps a core tool output back into the AI SDK shape: a string becomes `text`
 * (`error-text` when flagged), anything else `json` (`error-json`).
 */
export function toolOutputFromCore(output: unknown, isError: boolean | undefined): PromptToolResultOutput {
  if (typeof output === 'string')
    return isError ? { type: 'error-text', value: output } : { type: 'text', value: output };
  const value = (output === undefined ? null : output) as Extract<PromptToolResultOutput, { type: 'json' }>['value'];
  return isError ? { type: 'error-json', value } : { type: 'json', value };
}
