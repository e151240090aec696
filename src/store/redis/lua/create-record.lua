-- create-record: stores a record hash (field -> JSON value) only if it does not exist yet.
-- KEYS[1] = record hash; KEYS[2] (optional) = index SET of ids in the same slot
-- ARGV = id, then field, value pairs. Returns 1 when created, 0 when the record already existed.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
if KEYS[2] then
  redis.call('SADD', KEYS[2], ARGV[1])
end
return 1
