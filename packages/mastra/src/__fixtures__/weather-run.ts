import type { MastraDBMessage } from '@mastra/core/agent/message-list';

/** A fixed time, `ms` milliseconds into 2026. */
export const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms));

/** The shape a real two-step agent run stores (see the research dump): one assistant message for the run. */
export const weatherRun: MastraDBMessage[] = [
  {
    id: 'u1',
    role: 'user',
    createdAt: at(0),
    threadId: 't1',
    resourceId: 'r1',
    content: { format: 2, parts: [{ type: 'text', text: 'Weather in Paris?', createdAt: 1 }], content: 'Weather in Paris?' },
  },
  {
    id: 'a1',
    role: 'assistant',
    createdAt: at(1),
    threadId: 't1',
    resourceId: 'r1',
    content: {
      format: 2,
      parts: [
        {
          type: 'tool-invocation',
          toolInvocation: {
            state: 'result',
            toolCallId: 'call-1',
            toolName: 'getWeather',
            args: { city: 'Paris' },
            result: { city: 'Paris', forecast: 'sunny' },
          },
        },
        { type: 'step-start', createdAt: 2 },
        { type: 'text', text: 'It is sunny in Paris.' },
        { type: 'data-progress', data: { percent: 100 } },
      ],
      metadata: { modelId: 'mock-v4', provider: 'mock' },
    },
  },
];

