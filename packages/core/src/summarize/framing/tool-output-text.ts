import { isMediaValue } from '../../tokens/split-media.js';

/**
 * The text of a tool result's `output`, whatever shape the framework gave it: a string, an
 * AI SDK output (`{ type: 'text' | 'json' | 'error-text' | 'error-json' | 'content', value }`),
 * an array of content parts (`{ type: 'text', text }`), or any other value (as JSON).
 * Never throws: a value JSON cannot encode becomes `String(value)` (or `[unprintable value]`).
 */
export function toolOutputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined || output === null) return '';
  if (Array.isArray(output)) return output.map(contentPartText).join('\n');
  if (typeof output === 'object' && 'type' in output && 'value' in output) {
    const { type, value } = output as { type: unknown; value: unknown };
    if ((type === 'text' || type === 'error-text') && typeof value === 'string') return value;
    if (type === 'content' && Array.isArray(value)) return value.map(contentPartText).join('\n');
    if (type === 'json' || type === 'error-json') return safeJson(value);
  }
  return safeJson(output);
}

/** Whether a tool result reports a failure: `isError`, or an AI SDK `error-*` output. */
export function isErrorOutput(part: { isError?: boolean; output: unknown }): boolean {
  if (part.isError === true) return true;
  const output = part.output;
  return (
    typeof output === 'object' &&
    output !== null &&
    'type' in output &&
    typeof output.type === 'string' &&
    output.type.startsWith('error-')
  );
}

function contentPartText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (typeof part === 'object' && part !== null) {
    if ('text' in part && typeof part.text === 'string') return part.text;
    if (isMediaValue(part)) {
      const mediaType = 'mediaType' in part && typeof part.mediaType === 'string' ? part.mediaType : 'unknown type';
      return `[File: (${mediaType})]`;
    }
  }
  return safeJson(part);
}

/** `JSON.stringify` that cannot throw (cycles, BigInt) and never returns `undefined`. */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return '[unprintable value]';
    }
  }
}
