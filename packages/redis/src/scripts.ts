/** The milliseconds of the server's clock, in Lua (integer arithmetic is exact in doubles up to 2^53). */
const NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/**
 * Appends ARGV[2..] to the history list KEYS[1] in one step (chunks of 1000, as
 * Lua's stack limits `unpack`), refreshes the TTL ARGV[1] (seconds, 0 = none)
 * of both keys, and returns the new length.
 */
export const APPEND_SCRIPT = `
local ttl = tonumber(ARGV[1])
local n = redis.call('LLEN', KEYS[1])
local i = 2
while i <= #ARGV do
  local j = math.min(i + 999, #ARGV)
  n = redis.call('RPUSH', KEYS[1], unpack(ARGV, i, j))
  i = j + 1
end
if ttl > 0 then
  if n > 0 then redis.call('EXPIRE', KEYS[1], ttl) end
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ttl) end
end
return n`;

/**
 * Compare-and-set of the record hash KEYS[1] (fields revision, record).
 * ARGV[1]: the expected revision ('' = unconditional; compared with the
 * revision when a record is there, else 0); ARGV[2]: the record; ARGV[3]: TTL.
 * Returns {1, revision} when saved, {0, actual revision, stored record} when not.
 * The new revision is above the old one and at least the server clock in ms,
 * so it is never reused after the keys are deleted by clear or by the TTL.
 */
export const SAVE_SCRIPT = `
local current = redis.call('HMGET', KEYS[1], 'revision', 'record')
local revision = tonumber(current[1]) or 0
local actual = 0
if current[2] then actual = revision end
if ARGV[1] ~= '' and tonumber(ARGV[1]) ~= actual then
  return {0, actual, current[2] or ''}
end
${NOW}
local next = math.max(revision + 1, now)
redis.call('HSET', KEYS[1], 'revision', string.format('%d', next), 'record', ARGV[2])
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ttl) end
end
return {1, next}`;
