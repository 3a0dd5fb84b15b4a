import { StoreError } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { type RedisStoreOptions, redisStore } from './redis-store.js';

// Made, never connected: every check here runs when the store is made, before any command.
const client = createClient({ url: 'redis://user:secret@127.0.0.1:1' });

/** `redisStore` called the way JavaScript (or a cast) may call it. */
const make = (options: unknown) => () => redisStore(options as RedisStoreOptions);

describe('redisStore options are checked when the store is made', () => {
  it('refuses a Redis URL, saying to make a client, without echoing it (it may hold a password)', () => {
    expect(invalidSettingOf(make('redis://user:secret@cache:6379'))).toBe('options');
    expect(make('redis://user:secret@cache:6379')).toThrow(
      /a string \(a Redis URL\?\); pass redisStore\(\{ client: await createClient\(\{ url \}\)\.connect\(\) \}\)/,
    );
    expect(make('redis://user:secret@cache:6379')).not.toThrow(/secret/);
  });

  it('refuses no options, null, an array and a number', () => {
    for (const value of [undefined, null, [], 6379]) expect(invalidSettingOf(make(value))).toBe('options');
  });

  it("refuses unknown keys, telling node-redis's names and typos their place", () => {
    expect(invalidSettingOf(make({ url: 'redis://cache' }))).toBe('url');
    expect(make({ url: 'redis://cache' })).toThrow(/createClient calls it "url"; here use client: await createClient/);
    expect(invalidSettingOf(make({ client, ttl: 60 }))).toBe('ttl');
    expect(make({ client, ttl: 60 })).toThrow(/use ttlSeconds/);
    expect(invalidSettingOf(make({ client, keyPrefx: 'app:' }))).toBe('keyPrefx');
    expect(make({ client, keyPrefx: 'app:' })).toThrow(/did you mean "keyPrefix"/);
  });

  it('keeps the existing StoreError checks of client, keyPrefix and ttlSeconds', () => {
    expect(make({})).toThrow(/options\.client must be a connected node-redis client/);
    expect(make({ client, keyPrefix: 42 })).toThrow(StoreError);
    expect(make({ client, ttlSeconds: -1 })).toThrow(StoreError);
  });

  it('accepts a client not connected yet (it may connect before the first use), every option, and keys left undefined', () => {
    for (const options of [
      { client },
      { client, keyPrefix: '', ttlSeconds: 0 },
      { client, keyPrefix: 'app:', ttlSeconds: 3600 },
      { client, keyPrefix: undefined, ttlSeconds: undefined },
    ]) {
      expect(make(options)).not.toThrow();
    }
  });
});
