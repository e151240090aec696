-- top-up: adds credit once per idempotency key; returns {balance, held}.
-- KEYS[1] = org prefix; ARGV = amount, idempotencyKey
local p = KEYS[1]
if redis.call('SADD', p .. ':topups', ARGV[2]) == 1 then
  redis.call('INCRBY', p .. ':bal', ARGV[1])
end
return {tonumber(redis.call('GET', p .. ':bal') or '0'), tonumber(redis.call('GET', p .. ':held') or '0')}
