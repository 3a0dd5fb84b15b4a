import type { Recording } from '../recording/recording.js';
import { scriptedCodingSession } from './scripted-session.js';

/** The scripted coding session as a recording without recorded usage, ready to replay. */
export function scriptedRecording(): Recording {
  return {
    file: 'scripted coding session',
    format: 'compaction-json',
    messages: scriptedCodingSession(),
    calls: [],
    compactions: [],
    summarizationCalls: [],
    warnings: [],
  };
}
