-- Needs `--#include util` first.
-- Hold bookkeeping shared by hold, release-hold, balance and settle (inlined by `--#include holds`).
-- Per org p:  p:holds    ZSET requestId -> expiry (ms)
--             p:holdamt  HASH requestId -> amount
--             p:holdsc   HASH requestId -> JSON array of budget scopes ("key:<id>", "team:<id>")
--             p:held     total held;  p:bheld HASH scope -> held for that scope
-- Invariant: held == sum(holdamt) and bheld[s] == sum of holdamt over holds listing s.

local function hold_release(p, rid)
  local amt = redis.call('HGET', p .. ':holdamt', rid)
  if not amt then
    return
  end
  local a = tonumber(amt)
  redis.call('DECRBY', p .. ':held', amt)
  local sc = redis.call('HGET', p .. ':holdsc', rid)
  if sc then
    for _, s in ipairs(cjson.decode(sc)) do
      local left = tonumber(redis.call('HGET', p .. ':bheld', s) or '0')
      if a > 0 then
        left = redis.call('HINCRBY', p .. ':bheld', s, istr(-a))
      end
      if left <= 0 then
        redis.call('HDEL', p .. ':bheld', s)
      end
    end
    redis.call('HDEL', p .. ':holdsc', rid)
  end
  redis.call('HDEL', p .. ':holdamt', rid)
  redis.call('ZREM', p .. ':holds', rid)
end

-- Drops every hold whose expiry is at or before `now`.
local function hold_purge(p, now)
  local expired = redis.call('ZRANGEBYSCORE', p .. ':holds', '-inf', now)
  for _, rid in ipairs(expired) do
    hold_release(p, rid)
  end
end

local function balance_view(p)
  local bal = tonumber(redis.call('GET', p .. ':bal') or '0')
  local held = tonumber(redis.call('GET', p .. ':held') or '0')
  return bal, held
end
