-- patch-record: sets fields of an existing record hash and returns the whole record (HGETALL), or nil
-- when the record does not exist (a patch never creates a record).
-- KEYS[1] = record hash; ARGV = field, value pairs (possibly none)
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
if #ARGV > 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV))
end
return redis.call('HGETALL', KEYS[1])
