import { type Message, type Summarizer, structuredSummarizer } from '@compaction/core';

/** The structured summarizer, recording the messages of every span it is asked to summarize. */
export function recordingSummarizer(spans: Message[][]): Summarizer {
  const structured = structuredSummarizer();
  return {
    name: structured.name,
    summarize: (request) => {
      spans.push([...request.messages]);
      return structured.summarize(request);
    },
  };
}
