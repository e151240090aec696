-- Needs `--#include util` and `--#include holds` first. The hold step shared by hold.lua and
-- admit-hold.lua (inlined by `--#include hold-place`). Budgets are B[first..] as source, id, limit triples.
-- Returns {1, available after} | {0, 'plan' | 'budget', available}.
local function place_hold(p, rid, amountArg, now, ttl, B, first)
  local amount = tonumber(amountArg)

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
  for i = first, #B, 3 do
    local src, id, limit = B[i], B[i + 1], tonumber(B[i + 2])
    local spent = tonumber(redis.call('HGET', p .. ':sp:' .. src, 'c:' .. id) or '0')
    local heldFor = tonumber(redis.call('HGET', p .. ':bheld', src .. ':' .. id) or '0')
    if spent + heldFor + amount > limit then
      return {0, 'budget', available}
    end
    scopes[#scopes + 1] = src .. ':' .. id
  end

  redis.call('ZADD', p .. ':holds', now + ttl, rid)
  redis.call('HSET', p .. ':holdamt', rid, amountArg)
  redis.call('INCRBY', p .. ':held', amountArg)
  if #scopes > 0 then
    redis.call('HSET', p .. ':holdsc', rid, cjson.encode(scopes))
    for _, s in ipairs(scopes) do
      redis.call('HINCRBY', p .. ':bheld', s, amountArg)
    end
  end
  return {1, available - amount}
end
