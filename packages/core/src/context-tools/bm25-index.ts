import { searchTerms } from './search-terms.js';

/** Okapi BM25 term-frequency saturation. */
const K1 = 1.2;
/** Okapi BM25 length normalisation. */
const B = 0.75;

/** One ranked hit of {@link Bm25Index.search}. */
export type Bm25Hit = {
  /** Index of the document in the array the index was built from. */
  index: number;
  score: number;
  /** The query terms the document contains. */
  matched: string[];
};

/** A BM25 index over a fixed list of texts. */
export type Bm25Index = {
  /** Documents by score, best first; documents with no query term are left out. */
  search(query: string, limit: number): Bm25Hit[];
};

/**
 * Builds an Okapi BM25 index (k1 = 1.2, b = 0.75, the Lucene IDF
 * `ln(1 + (N − n + 0.5) / (n + 0.5))`, which never goes negative) over `texts`.
 * Terms come from {@link searchTerms}. Ties keep the later document first: in a
 * conversation the more recent mention is usually the one that still holds.
 */
export function createBm25Index(texts: readonly string[]): Bm25Index {
  const frequencies = texts.map((text) => {
    const counts = new Map<string, number>();
    for (const term of searchTerms(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  const lengths = texts.map((_, i) => {
    let total = 0;
    for (const count of frequencies[i]!.values()) total += count;
    return total;
  });
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length);
  const documentFrequency = new Map<string, number>();
  for (const counts of frequencies) {
    for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const count = texts.length;

  return {
    search(query, limit) {
      const terms = [...new Set(searchTerms(query))];
      const hits: Bm25Hit[] = [];
      for (let index = 0; index < count; index++) {
        const counts = frequencies[index]!;
        let score = 0;
        const matched: string[] = [];
        for (const term of terms) {
          const tf = counts.get(term);
          if (tf === undefined) continue;
          const n = documentFrequency.get(term) ?? 0;
          const idf = Math.log(1 + (count - n + 0.5) / (n + 0.5));
          const norm = 1 - B + (B * lengths[index]!) / (averageLength || 1);
          score += (idf * (tf * (K1 + 1))) / (tf + K1 * norm);
          matched.push(term);
        }
        if (matched.length > 0) hits.push({ index, score, matched });
      }
      hits.sort((a, b) => b.score - a.score || b.index - a.index);
      return hits.slice(0, Math.max(0, limit));
    },
  };
}
