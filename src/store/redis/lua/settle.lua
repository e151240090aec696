-- settle: applies a batch of settlement entries of ONE org, each exactly once per requestId.
-- For each new entry: release its hold, debit the cost, add to spend counters, replace the TPM estimate by
-- the actual tokens, release leases, append the ledger entry (list capped, plus per-request lookup).
-- KEYS[1] = org prefix
-- ARGV[1] = ledger cap; then per entry two values:
--   instruction JSON {rid, cost, it, ot, tok, sp = [[group, value]...], sc = [[source, id]...]}
--   ledger JSON of the entry without balanceAfter (spliced in here so no number goes through cjson.encode)
-- p:sp:<group> HASH  c:<value> cost, r:<value> requests, i:<value> input tokens, o:<value> output tokens
-- p:ledger LIST of request ids, newest first; p:ledidx HASH requestId -> ledger JSON. Both keep the newest
-- `cap` entries; ledidx is also the idempotency marker, so a request id is applied once within that window.
-- Returns the request ids newly applied.
--#include util
--#include holds

local p = KEYS[1]
local cap = tonumber(ARGV[1])
local idx, ledger = p .. ':ledidx', p .. ':ledger'
local applied = {}

for i = 2, #ARGV, 2 do
  local e = cjson.decode(ARGV[i])
  if redis.call('HEXISTS', idx, e.rid) == 0 then
    hold_release(p, e.rid)
    local bal = redis.call('DECRBY', p .. ':bal', istr(e.cost))
    for _, g in ipairs(e.sp) do
      local k, v = p .. ':sp:' .. g[1], g[2]
      redis.call('HINCRBY', k, 'c:' .. v, istr(e.cost))
      redis.call('HINCRBY', k, 'r:' .. v, 1)
      redis.call('HINCRBY', k, 'i:' .. v, istr(e.it))
      redis.call('HINCRBY', k, 'o:' .. v, istr(e.ot))
    end
    for _, s in ipairs(e.sc) do
      local b = p .. ':w:' .. s[1] .. ':' .. s[2]
      if redis.call('ZSCORE', b .. ':tz', e.rid) then
        local old = tonumber(redis.call('HGET', b .. ':tt', e.rid) or '0')
        redis.call('HSET', b .. ':tt', e.rid, istr(e.tok))
        redis.call('INCRBY', b .. ':ts', istr(e.tok - old))
      end
      redis.call('ZREM', b .. ':l', e.rid)
    end
    local json = ARGV[i + 1]
    local full = string.sub(json, 1, -2) .. ',"balanceAfter":' .. istr(bal) .. '}'
    redis.call('LPUSH', ledger, e.rid)
    redis.call('HSET', idx, e.rid, full)
    applied[#applied + 1] = e.rid
  end
end
if #applied > 0 and redis.call('LLEN', ledger) > cap then
  local old = redis.call('LRANGE', ledger, cap, -1)
  for i = 1, #old, 500 do
    redis.call('HDEL', idx, unpack(old, i, math.min(i + 499, #old)))
  end
  redis.call('LTRIM', ledger, 0, cap - 1)
end
return applied
