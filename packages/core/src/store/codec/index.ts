export { decodeJson } from './decode-json.js';
export { decodeMessage } from './decode-message.js';
export { decodeRecord } from './decode-record.js';
export { encodeMessages } from './encode-messages.js';
export { encodeRecord } from './encode-record.js';
export { encodeValue, TAG, UnstorableValueError } from './encode-value.js';
