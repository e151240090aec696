-- release-leases: drops a request's concurrency lease in each scope (idempotent).
-- KEYS[1] = org prefix; ARGV = requestId, then source, id pairs.
local p, rid = KEYS[1], ARGV[1]
for i = 2, #ARGV, 2 do
  redis.call('ZREM', p .. ':w:' .. ARGV[i] .. ':' .. ARGV[i + 1] .. ':l', rid)
end
return 1
