-- kv-set-capped: writes a kv entry as the newest of a capped group and deletes the oldest beyond the cap, in one
-- step (two nodes writing at once cannot both keep the group over its cap, or delete one entry twice).
-- KEYS[1] = the entry (kv:<key>); KEYS[2] = the group's list of entry names, oldest first (kvg:<group>).
-- ARGV[1] = JSON value; ARGV[2] = TTL ms; ARGV[3] = cap; ARGV[4] = most entries deleted by this write (a lowered cap
-- converges over a few writes). The entries and the list share a hash tag: the names popped
-- from the list are in this script's slot. Returns how many entries were deleted.
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local n = redis.call('RPUSH', KEYS[2], KEYS[1])
-- The list lives as long as its newest entry.
redis.call('PEXPIRE', KEYS[2], ARGV[2])
local cap = tonumber(ARGV[3])
local most = tonumber(ARGV[4])
local deleted = 0
while n > cap and deleted < most do
  local old = redis.call('LPOP', KEYS[2])
  redis.call('DEL', old)
  deleted = deleted + 1
  n = n - 1
end
return deleted
