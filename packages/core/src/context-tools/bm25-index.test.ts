import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBm25Index } from './bm25-index.js';
import { searchTerms } from './search-terms.js';

describe('searchTerms', () => {
  it('lower-cases words and also yields the parts of identifiers', () => {
    expect(searchTerms('parseConfigFile')).toEqual(['parseconfigfile', 'parse', 'config', 'file']);
    expect(searchTerms('MAX_RUN_CHARS = 40')).toEqual(['max_run_chars', 'max', 'run', 'chars', '40']);
    expect(searchTerms('HTTPServer')).toEqual(['httpserver', 'http', 'server']);
    expect(searchTerms('Grüße, мир')).toEqual(['grüße', 'мир']);
  });
});

describe('createBm25Index', () => {
  const docs = [
    'the cat sat on the mat',
    'the dog chased the cat around the garden and the cat ran',
    'nothing to see here',
    'ERR_PACKAGE_PATH_NOT_EXPORTED thrown by require',
  ];

  it('ranks the document with more occurrences of a rare term first, and leaves out non-matches', () => {
    const hits = createBm25Index(docs).search('cat', 10);
    expect(hits.map((hit) => hit.index)).toEqual([1, 0]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('weighs a rare term above a common one', () => {
    const index = createBm25Index(['alpha common', 'beta common', 'gamma common', 'alpha rare']);
    expect(index.search('common rare', 1)[0]!.index).toBe(3);
  });

  it('finds identifiers by their parts', () => {
    expect(createBm25Index(docs).search('package path exported', 5)[0]!.index).toBe(3);
  });

  it('respects the limit and returns nothing for an empty or unmatched query', () => {
    expect(createBm25Index(docs).search('the', 1)).toHaveLength(1);
    expect(createBm25Index(docs).search('', 5)).toEqual([]);
    expect(createBm25Index(docs).search('zebra', 5)).toEqual([]);
    expect(createBm25Index([]).search('cat', 5)).toEqual([]);
  });

  it('always returns finite, non-negative scores, best first, only for documents holding a query term', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 60 }), { maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (texts, query) => {
          const hits = createBm25Index(texts).search(query, 50);
          const queryTerms = new Set(searchTerms(query));
          for (let i = 0; i < hits.length; i++) {
            const hit = hits[i]!;
            expect(Number.isFinite(hit.score) && hit.score >= 0).toBe(true);
            if (i > 0) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hit.score);
            expect(searchTerms(texts[hit.index]!).some((term) => queryTerms.has(term))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
