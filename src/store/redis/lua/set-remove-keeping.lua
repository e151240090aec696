-- set-remove-keeping: removes a member unless that leaves the set with fewer than a minimum; check and
-- removal in one step, so two nodes removing the last two Owners at once cannot both pass the check.
-- KEYS[1] = the set; ARGV[1] = member; ARGV[2] = members that must remain.
-- Returns 1 removed, 0 not a member, -1 refused.
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call('SCARD', KEYS[1]) - 1 < tonumber(ARGV[2]) then
  return -1
end
redis.call('SREM', KEYS[1], ARGV[1])
return 1
