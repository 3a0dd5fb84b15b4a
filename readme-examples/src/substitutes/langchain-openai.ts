/**
 * Stands in for `@langchain/openai` when the README examples run (the vitest
 * project `readme` aliases the module here; type-checking uses the real package).
 * `ChatOpenAI` is LangChain's own fake chat model (`FakeBuiltModel`) with the
 * model id set, answering {@link TEST_MODEL_TEXT} to every call.
 */
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { FakeBuiltModel } from '@langchain/core/testing';
import { reportedInputTokens, TEST_MODEL_TEXT } from './test-model-text.js';

/** How many answers each model has queued: far more than any example calls it. */
const ANSWERS = 200;

export class ChatOpenAI extends FakeBuiltModel {
  /** The model id, read by the middleware for the context window. */
  model: string;

  constructor(fields: { model?: string } = {}) {
    super();
    this.model = fields.model ?? 'gpt-5';
    for (let index = 0; index < ANSWERS; index += 1) {
      this.respond(
        (messages: BaseMessage[]) =>
          new AIMessage({
            content: TEST_MODEL_TEXT,
            usage_metadata: { input_tokens: reportedInputTokens(messages), output_tokens: 50, total_tokens: 0 },
          }),
      );
    }
  }
}
