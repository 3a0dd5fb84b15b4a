import { COMPACTION_STATE_SCHEMA, type CompactionState } from '../compaction/compaction-state.js';
import { summaryFieldsProblem } from '../compaction/summary-fields-problem.js';
import { InvalidStateError } from '../errors/index.js';
import type { SessionRecord, UsageRecord } from './session-store.js';

const REMEDY = 'repair the field, or delete the stored record to drop the compaction state (the history is kept)';

type Fields = Record<string, unknown>;

function fail(source: string | undefined, problem: string): never {
  throw new InvalidStateError({ problem: `${problem}; ${REMEDY}`, source });
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expectObject(value: unknown, path: string, source: string | undefined): Fields {
  if (!isObject(value)) fail(source, `${path} must be an object, got ${describe(value)}`);
  return value;
}

function expectString(value: unknown, path: string, source: string | undefined): string {
  if (typeof value !== 'string') fail(source, `${path} must be a string, got ${describe(value)}`);
  return value;
}

function expectCount(value: unknown, path: string, source: string | undefined): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    fail(source, `${path} must be a non-negative integer, got ${describe(value)}`);
  }
  return value;
}

function expectAmount(value: unknown, path: string, source: string | undefined): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(source, `${path} must be a non-negative number, got ${describe(value)}`);
  }
  return value;
}

function expectStrings(value: unknown, path: string, source: string | undefined): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    fail(source, `${path} must be an array of strings, got ${describe(value)}`);
  }
  return value;
}

/**
 * Checks that `value` (parsed from storage) is a {@link CompactionState} this
 * version can read, and returns it typed. A state whose `schema` is newer than
 * {@link COMPACTION_STATE_SCHEMA} is refused: it was written by a newer release.
 *
 * @param value - The parsed JSON.
 * @param source - The file or key it came from, named in the error.
 * @throws InvalidStateError naming the field at fault and what to do.
 * @example
 * const state = validateCompactionState(JSON.parse(text), 'sessions/a.state.json');
 */
export function validateCompactionState(value: unknown, source?: string): CompactionState {
  const state = expectObject(value, 'state', source);
  const schema = state.schema;
  if (typeof schema !== 'number' || !Number.isInteger(schema) || schema < 1) {
    fail(source, `state.schema must be a positive integer, got ${describe(schema)}`);
  }
  if (schema > COMPACTION_STATE_SCHEMA) {
    throw new InvalidStateError({
      source,
      problem:
        `state.schema is ${schema}, but this version of @compaction/core reads schema ${COMPACTION_STATE_SCHEMA} at most: ` +
        'the state was written by a newer release. Upgrade @compaction/core, or delete the stored record to drop the compaction state',
    });
  }
  const version = expectCount(state.version, 'state.version', source);
  if (version < 1) fail(source, `state.version must be 1 or more, got ${version}`);
  expectString(state.summary, 'state.summary', source);
  expectString(state.firstKeptMessageId, 'state.firstKeptMessageId', source);
  const range = expectObject(state.summarizedRange, 'state.summarizedRange', source);
  for (const key of ['fromIndex', 'messageCount']) {
    expectCount(range[key], `state.summarizedRange.${key}`, source);
  }
  // A compaction that only pruned tool outputs summarized nothing: toIndex -1, messageCount 0.
  const toIndex = range.toIndex;
  if (typeof toIndex !== 'number' || !Number.isInteger(toIndex) || toIndex < (range.messageCount === 0 ? -1 : 0)) {
    fail(
      source,
      `state.summarizedRange.toIndex must be a non-negative integer (-1 only when messageCount is 0), got ${describe(toIndex)}`,
    );
  }
  expectStrings(state.prunedToolCallIds, 'state.prunedToolCallIds', source);
  const fileOps = expectObject(state.fileOps, 'state.fileOps', source);
  expectStrings(fileOps.read, 'state.fileOps.read', source);
  expectStrings(fileOps.modified, 'state.fileOps.modified', source);
  expectAmount(state.tokensBefore, 'state.tokensBefore', source);
  expectAmount(state.tokensAfter, 'state.tokensAfter', source);
  if (expectString(state.strategy, 'state.strategy', source) === '') fail(source, 'state.strategy must not be empty');
  const createdAt = expectString(state.createdAt, 'state.createdAt', source);
  if (Number.isNaN(Date.parse(createdAt))) fail(source, `state.createdAt must be an ISO 8601 time, got "${createdAt}"`);
  const summaryProblem = summaryFieldsProblem(state);
  if (summaryProblem) fail(source, summaryProblem);
  return state as CompactionState;
}

const STRETCH_KEYS = ['countedLength', 'countedInputTokens', 'reportsSinceCounted', 'countedPrefixTokens'] as const;

/**
 * A usage record whose count lags its last call: the four fields together, and no
 * `countedTokens` (which a release before the lagging count reads as covering the call).
 */
function validateCountedStretch(usage: Fields, source: string | undefined): void {
  const given = STRETCH_KEYS.filter((key) => usage[key] !== undefined);
  if (given.length === 0) return;
  if (given.length < STRETCH_KEYS.length) {
    const missing = STRETCH_KEYS.filter((key) => usage[key] === undefined);
    fail(source, `usage.${given[0]} needs usage.${missing.join(' and usage.')} beside it`);
  }
  if (usage.countedTokens !== undefined) {
    fail(
      source,
      'usage.countedTokens covers the whole call: leave it out beside usage.countedLength (the count over that prefix is usage.countedPrefixTokens)',
    );
  }
  // One past `historyLength` is not refused (an adapter that rewrites its history may move
  // `historyLength`): the session then takes the record's count as no count (`countedPair`).
  expectCount(usage.countedLength, 'usage.countedLength', source);
  expectAmount(usage.countedInputTokens, 'usage.countedInputTokens', source);
  expectAmount(usage.countedPrefixTokens, 'usage.countedPrefixTokens', source);
  if (expectCount(usage.reportsSinceCounted, 'usage.reportsSinceCounted', source) < 1) {
    fail(source, 'usage.reportsSinceCounted must be 1 or more');
  }
}

function validateUsage(value: unknown, source: string | undefined): UsageRecord {
  const usage = expectObject(value, 'usage', source);
  expectAmount(usage.inputTokens, 'usage.inputTokens', source);
  for (const key of ['contextMessageCount', 'historyLength', 'stateVersion']) {
    expectCount(usage[key], `usage.${key}`, source);
  }
  if (usage.countedTokens !== undefined) expectAmount(usage.countedTokens, 'usage.countedTokens', source);
  validateCountedStretch(usage, source);
  if (usage.lastMessageId !== undefined && typeof usage.lastMessageId !== 'string') {
    fail(source, `usage.lastMessageId must be a string, got ${typeof usage.lastMessageId}`);
  }
  return usage as UsageRecord;
}

function validateCalibration(value: unknown, source: string | undefined): Record<string, number> {
  const calibration = expectObject(value, 'calibration', source);
  for (const [model, ratio] of Object.entries(calibration)) {
    if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio <= 0) {
      fail(source, `calibration["${model}"] must be a positive number, got ${describe(ratio)}`);
    }
  }
  return calibration as Record<string, number>;
}

/**
 * Checks that `value` (parsed from storage) is a {@link SessionRecord}: its
 * `state` with {@link validateCompactionState}, its `usage` and `calibration`
 * figures. Returns it typed.
 *
 * @param value - The parsed JSON.
 * @param source - The file or key it came from, named in the error.
 * @throws InvalidStateError naming the field at fault and what to do.
 */
export function validateSessionRecord(value: unknown, source?: string): SessionRecord {
  const record = expectObject(value, 'record', source);
  if (record.revision !== undefined) expectCount(record.revision, 'revision', source);
  if (record.state !== undefined) validateCompactionState(record.state, source);
  if (record.usage !== undefined) validateUsage(record.usage, source);
  if (record.calibration !== undefined) validateCalibration(record.calibration, source);
  if (record.stuckAtHistoryLength !== undefined)
    expectCount(record.stuckAtHistoryLength, 'stuckAtHistoryLength', source);
  return record as SessionRecord;
}
