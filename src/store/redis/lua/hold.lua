-- hold: atomic credit hold. Drops expired holds, then refuses if amount > balance - held (plan) or if a
-- budget's spent + held-for-scope + amount > limit (budget); else records the hold with its expiry.
-- Idempotent per requestId: a request that already holds, or was already settled, gets ok unchanged.
-- KEYS[1] = org prefix
-- ARGV = requestId, amount, now, ttlMs, then per budget: source, id, limit
-- Returns {1, available after} | {0, 'plan' | 'budget', available}
--#include util
--#include holds

local p = KEYS[1]
local rid = ARGV[1]
local amount, now, ttl = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])

hold_purge(p, now)
local bal, held = balance_view(p)
local available = bal - held
if redis.call('ZSCORE', p .. ':holds', rid) or redis.call('HEXISTS', p .. ':ledidx', rid) == 1 then
  return {1, available}
end
if amount > available then
  return {0, 'plan', available}
end
local scopes = {}
for i = 5, #ARGV, 3 do
  local src, id, limit = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local spent = tonumber(redis.call('HGET', p .. ':sp:' .. src, 'c:' .. id) or '0')
  local heldFor = tonumber(redis.call('HGET', p .. ':bheld', src .. ':' .. id) or '0')
  if spent + heldFor + amount > limit then
    return {0, 'budget', available}
  end
  scopes[#scopes + 1] = src .. ':' .. id
end

redis.call('ZADD', p .. ':holds', now + ttl, rid)
redis.call('HSET', p .. ':holdamt', rid, ARGV[2])
redis.call('INCRBY', p .. ':held', ARGV[2])
if #scopes > 0 then
  redis.call('HSET', p .. ':holdsc', rid, cjson.encode(scopes))
  for _, s in ipairs(scopes) do
    redis.call('HINCRBY', p .. ':bheld', s, ARGV[2])
  end
end
return {1, available - amount}
