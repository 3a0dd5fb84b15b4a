import type { MastraDBMessage, MessageList } from '@mastra/core/agent/message-list';
import type { ProcessInputArgs, ProcessInputStepArgs, Processor } from '@mastra/core/processors';

/**
 * An input processor that keeps a copy of the run's message list each time a hook before a model
 * call runs. Listed after the `CompactionProcessor`, it sees only the lists the processor took
 * (Mastra stops at a processor that throws); listed before, every list the processor was about to take.
 */
export class ListRecorder implements Processor {
  readonly id: string;
  /** Every list it saw, oldest first (deep copies: Mastra changes messages in place). */
  readonly lists: MastraDBMessage[][] = [];

  constructor(id: string) {
    this.id = id;
  }

  async processInput({ messageList }: ProcessInputArgs): Promise<MessageList> {
    this.#record(messageList);
    return messageList;
  }

  async processInputStep({ messageList }: ProcessInputStepArgs): Promise<undefined> {
    this.#record(messageList);
    return undefined;
  }

  #record(messageList: MessageList | undefined): void {
    if (messageList) this.lists.push(structuredClone(messageList.get.all.db()));
  }
}
