import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { Message } from '../messages/types.js';
import { decodeHistoryRows, returnArrays } from './sqlite-history-rows.js';

const SOURCE = 'sessions.db compaction_messages["s"]';
const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: `text of ${id} ✓` }] });

describe('decodeHistoryRows', () => {
  it('reads rows as arrays and as objects (Node without setReturnArrays) alike', () => {
    const messages = [message('a'), message('b'), message('c')];
    const arrays = messages.map((m, seq): [string, number] => [JSON.stringify(m), seq + 4]);
    const objects = arrays.map(([text, seq]) => ({ message: text, seq }));
    expect(decodeHistoryRows(arrays, SOURCE)).toEqual(messages);
    expect(decodeHistoryRows(objects, SOURCE)).toEqual(messages);
    expect(decodeHistoryRows([], SOURCE)).toEqual([]);
  });

  it('names the entry of a row that is no message, in either shape', () => {
    const rows: [string, number][] = [
      [JSON.stringify(message('a')), 7],
      ['{"id": "b", "ro', 8],
    ];
    for (const shape of [rows, rows.map(([text, seq]) => ({ message: text, seq }))]) {
      let error: unknown;
      try {
        decodeHistoryRows(shape, SOURCE);
      } catch (caught) {
        error = caught;
      }
      expect(InvalidStateError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(`${SOURCE}`);
      expect((error as Error).message).toContain('entry 8 is not valid JSON');
    }
  });
});

describe('returnArrays', () => {
  it("makes a node:sqlite statement return each row as an array of its columns, in the query's order", () => {
    const db = new DatabaseSync(':memory:');
    try {
      db.exec("CREATE TABLE t (seq INTEGER, message TEXT); INSERT INTO t VALUES (0, 'x'), (1, 'y');");
      const rows = returnArrays(db.prepare('SELECT message, seq FROM t ORDER BY seq')).all();
      expect(rows).toEqual([
        ['x', 0],
        ['y', 1],
      ]);
    } finally {
      db.close();
    }
  });
});
