import { TAG } from './encode-value.js';

const DOLLAR = 36;

function revive(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const fields = value as Record<string, unknown>;
  if (TAG in fields) {
    const kind = fields[TAG];
    const data = fields.v;
    if (typeof data === 'string') {
      if (kind === 'bytes') return new Uint8Array(Buffer.from(data, 'base64'));
      if (kind === 'date') return new Date(data);
    }
    throw new Error(`holds an unknown tagged value ${JSON.stringify(fields).slice(0, 80)}`);
  }
  let escaped = false;
  for (const name in fields) {
    if (name.charCodeAt(0) === DOLLAR) {
      escaped = true;
      break;
    }
  }
  if (!escaped) return value;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(fields)) out[name.charCodeAt(0) === DOLLAR ? name.slice(1) : name] = item;
  return out;
}

/**
 * Parses JSON written from {@link encodeValue}: tagged values come back as
 * `Uint8Array` and `Date`, escaped `$` keys as they were.
 *
 * @throws SyntaxError on invalid JSON; Error on an unknown tag.
 */
export function decodeJson(text: string): unknown {
  // Without a `$` key there is nothing to revive: the plain parse is several times faster.
  return text.includes('"$') ? JSON.parse(text, revive) : JSON.parse(text);
}
