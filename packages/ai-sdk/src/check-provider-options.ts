import { checkOptionKeys, checkSessionId, describeValue, InvalidSettingsError } from '@compaction/core';

/** Where the middleware's per-call options live in a call's `providerOptions`. */
export const PROVIDER_OPTIONS_KEY = 'compaction';

/** The keys `providerOptions.compaction` may have. */
const KEYS = ['sessionId'];

/** How the options read, for messages. */
const EXAMPLE = 'providerOptions: { compaction: { sessionId: chatId } }';

/**
 * Checks a call's `providerOptions.compaction` when the middleware receives the call,
 * and gives its `sessionId` (`undefined` when none is given: the conversation is keyed
 * by its content). `compaction` must be an object whose only key is `sessionId`
 * (a misspelled key gets "did you mean"), and `sessionId` core's session id
 * (`checkSessionId`: a string with a visible character) or `undefined`, which counts as
 * none given — `sessionId: chatId` from an app whose chat id is optional keys the call by
 * its content, as it did before the check; `''`, blanks, `null` and non-strings do not
 * count as none. Anything else throws `InvalidSettingsError` naming
 * `providerOptions.compaction.<key>` — instead of silently keying the call by content,
 * where the chat's own session (what `contextTools` and `stats` read) never sees it.
 *
 * @example
 * ```ts
 * const sessionId = checkProviderOptions(params.providerOptions); // 'chat-1' or undefined
 * ```
 */
export function checkProviderOptions(providerOptions: unknown): string | undefined {
  if (typeof providerOptions !== 'object' || providerOptions === null) return undefined;
  const given = (providerOptions as Record<string, unknown>)[PROVIDER_OPTIONS_KEY];
  if (given === undefined) return undefined;
  const setting = `providerOptions.${PROVIDER_OPTIONS_KEY}`;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    const example = typeof given === 'string' ? `{ sessionId: ${JSON.stringify(given)} }` : '{ sessionId: chatId }';
    throw new InvalidSettingsError({
      setting,
      problem: `must be an object ${example} (${EXAMPLE}), got ${describeValue(given)}`,
    });
  }
  checkOptionKeys(given, KEYS, setting, {}, `${setting}.`);
  const { sessionId } = given as { sessionId?: unknown };
  if (sessionId === undefined) return undefined; // `sessionId: chatId` with no chat id yet: keyed by content, as before
  checkSessionId(sessionId, { setting: `${setting}.sessionId` });
  return sessionId;
}
