import type { Message } from '@compaction/core';

/**
 * Identifier coverage: of the code-like identifiers a reference summary (Claude Code's own)
 * mentions that also occur in the summarized span, the share another summary contains.
 *
 * Extraction (`referenceIdentifiers`), applied to the reference summary's text:
 * - backticked spans: a span without spaces is one candidate; a span with spaces (a command,
 *   a call) counts whole when it is at most 60 characters, and its code-like words count too;
 * - every other word (split at whitespace, quotes, brackets, commas, `;`, `=`, `|`, `*`) is a
 *   candidate when it is code-like: a dotted, slashed or `::`-qualified name (`a.b`, `lib/x.ex`,
 *   `get/2`), snake_case, camelCase / PascalCase, or a `--flag`.
 * Normalisation: leading and trailing punctuation that is not part of a name is dropped (`.`
 * `,` `:` `;` `!` `?` `'` `"` and unbalanced brackets), as are a trailing `()`; candidates
 * shorter than 3 characters, without a letter, or starting with a digit (versions, sizes,
 * list numbers like `1.`) are dropped; duplicates are counted once. Case is kept (identifiers
 * are case-sensitive).
 * Occurrence: an identifier "occurs" in a text when it appears there with no letter, digit or
 * `_` directly before or after it (so `annotation.ex` occurs in `lib/spotter/annotation.ex`,
 * but `state` does not occur in `states`). The span's text is every text part, tool-call
 * input (as JSON string values) and tool-result output of its messages.
 * Coverage = identifiers that occur in the span and in the summary / identifiers that occur
 * in the span.
 */
export type IdentifierCoverage = { kept: number; total: number; missed: string[] };

const WORD_SPLIT = /[\s"'()[\]{}<>,;=|*]+/;
const EDGE = /^[.,:;!?'"`]+|[.,:;!?'"`]+$/g;
const MAX_SPAN_CHARS = 60;

function codeLike(token: string): boolean {
  if (token.length < 3 || !/[A-Za-z]/.test(token) || /^\d/.test(token)) return false;
  if (/^--?[A-Za-z][\w-]*$/.test(token)) return token.startsWith('--');
  return (
    /[A-Za-z0-9_](?:\.|\/|::)[A-Za-z0-9_]/.test(token) ||
    /[A-Za-z0-9]_[A-Za-z0-9]/.test(token) ||
    /[a-z0-9][A-Z]|[A-Z]{2,}[a-z]/.test(token)
  );
}

function normalize(token: string): string {
  return token.replace(/\(\)$/, '').replace(EDGE, '');
}

/** The code-like identifiers of a (reference) summary's text, normalised as documented above. */
export function referenceIdentifiers(text: string): string[] {
  const found = new Set<string>();
  let prose = text;
  for (const match of text.matchAll(/`([^`\n]+)`/g)) {
    const span = (match[1] ?? '').trim();
    if (!/\s/.test(span)) {
      const token = normalize(span);
      if (token.length >= 3 && /[A-Za-z]/.test(token) && !/^\d/.test(token)) found.add(token);
    } else if (span.length <= MAX_SPAN_CHARS) {
      found.add(span.replace(/\s+/g, ' '));
    }
    prose = prose.replace(match[0], ` ${span} `);
  }
  for (const word of prose.split(WORD_SPLIT)) {
    const token = normalize(word);
    if (codeLike(token)) found.add(token);
  }
  return [...found];
}

/** Whether `identifier` occurs in `text` with no name character directly around it. */
export function occursIn(text: string, identifier: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(identifier, from);
    if (at < 0) return false;
    const before = text[at - 1] ?? ' ';
    const after = text[at + identifier.length] ?? ' ';
    if (!/[A-Za-z0-9_]/.test(before) && !/[A-Za-z0-9_]/.test(after)) return true;
    from = at + 1;
  }
}

/** Everything a span says, as one text: text parts, tool-call inputs' string values, tool outputs. */
export function spanText(messages: readonly Message[]): string {
  const pieces: string[] = [];
  const strings = (value: unknown): void => {
    if (typeof value === 'string') pieces.push(value);
    else if (Array.isArray(value)) for (const item of value) strings(item);
    else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) strings(item);
  };
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'text' || part.type === 'reasoning') pieces.push(part.text);
      else if (part.type === 'tool-call') strings(part.input);
      else if (part.type === 'tool-result') strings(part.output);
    }
  }
  return pieces.join('\n');
}

/** The reference's identifiers that occur in the span (the denominator of every summary's coverage). */
export function spanReferenceIdentifiers(reference: string, span: string): string[] {
  return referenceIdentifiers(reference).filter((identifier) => occursIn(span, identifier));
}

/** How many of `identifiers` occur in `summary` (whitespace runs read as one space on both sides). */
export function identifierCoverage(summary: string, identifiers: readonly string[]): IdentifierCoverage {
  const text = summary.replace(/\s+/g, ' ');
  const missed = identifiers.filter((identifier) => !occursIn(text, identifier));
  return { kept: identifiers.length - missed.length, total: identifiers.length, missed };
}
