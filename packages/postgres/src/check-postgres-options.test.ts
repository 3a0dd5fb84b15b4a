import { StoreError } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL } from '../test/postgres-url.js';
import { type PostgresStoreOptions, postgresStore } from './postgres-store.js';

// Made, never connected: every check here runs when the store is made, before any query.
const pool = new pg.Pool({ connectionString: 'postgres://user:secret@127.0.0.1:1/db' });
afterAll(() => pool.end());

/** `postgresStore` called the way JavaScript (or a cast) may call it. */
const make = (options: unknown) => () => postgresStore(options as PostgresStoreOptions);

describe('postgresStore options are checked when the store is made', () => {
  it('refuses a connection string, saying to make a pg.Pool, without echoing it (it may hold a password)', () => {
    expect(invalidSettingOf(make('postgres://user:secret@db/app'))).toBe('options');
    expect(make('postgres://user:secret@db/app')).toThrow(
      /a string \(a connection string\?\); pass postgresStore\(\{ pool: new pg\.Pool\(\{ connectionString \}\) \}\)/,
    );
    expect(make('postgres://user:secret@db/app')).not.toThrow(/secret/);
  });

  it('refuses no options, null, an array and a number', () => {
    for (const value of [undefined, null, [], 5432]) expect(invalidSettingOf(make(value))).toBe('options');
  });

  it("refuses unknown keys, telling pg's names and typos their place", () => {
    expect(invalidSettingOf(make({ connectionString: POSTGRES_URL }))).toBe('connectionString');
    expect(make({ connectionString: POSTGRES_URL })).toThrow(
      /pg calls it "connectionString"; here use pool: new pg\.Pool/,
    );
    expect(invalidSettingOf(make({ pool, tablePrefx: 'app_' }))).toBe('tablePrefx');
    expect(make({ pool, tablePrefx: 'app_' })).toThrow(/did you mean "tablePrefix"/);
    expect(invalidSettingOf(make({ pool, createTable: false }))).toBe('createTable');
  });

  it('refuses a pg.Client for pool (one connection: connect() returns no client) and a createTables that is not a boolean', () => {
    const client = new pg.Client({ connectionString: 'postgres://127.0.0.1:1/db' });
    expect(invalidSettingOf(make({ pool: client }))).toBe('pool');
    expect(make({ pool: client })).toThrow(/is a pg Client .* pass new pg\.Pool/);
    expect(invalidSettingOf(make({ pool, createTables: 'no' }))).toBe('createTables');
  });

  it('keeps the existing StoreError checks of pool and tablePrefix', () => {
    expect(make({ pool: {} })).toThrow(StoreError);
    expect(make({})).toThrow(/options\.pool must be a pg Pool/);
    expect(make({ pool, tablePrefix: 'x; DROP TABLE y' })).toThrow(StoreError);
  });

  it('accepts a pg.Pool with every option, and keys left undefined (valid neighbours)', () => {
    for (const options of [
      { pool },
      { pool, tablePrefix: 'app.compaction_', createTables: false },
      { pool, tablePrefix: undefined, createTables: undefined },
    ]) {
      expect(make(options)).not.toThrow();
    }
    // A pool shaped like pg's without being one (e.g. a serverless driver's Pool) is still accepted.
    const shaped = { query: pool.query.bind(pool), connect: pool.connect.bind(pool) };
    expect(make({ pool: shaped })).not.toThrow();
  });
});
