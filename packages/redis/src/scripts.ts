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
 * The new revision comes from the counter KEYS[3], which `clear` keeps, so a
 * revision is never reused (the TTL, when set, expires the counter with the rest).
 */
export const SAVE_SCRIPT = `
local current = redis.call('HMGET', KEYS[1], 'revision', 'record')
local revision = tonumber(current[1]) or 0
local actual = 0
if current[2] then actual = revision end
if ARGV[1] ~= '' and tonumber(ARGV[1]) ~= actual then
  return {0, actual, current[2] or ''}
end
local next = redis.call('INCR', KEYS[3])
if next <= revision then
  next = revision + 1
  redis.call('SET', KEYS[3], next)
end
redis.call('HSET', KEYS[1], 'revision', next, 'record', ARGV[2])
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[3], ttl)
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ttl) end
end
return {1, next}`;
