-- admit-hold: admission and the credit hold of one request in one round trip (the hot path on Redis).
-- Admission first, exactly as admit.lua; if it refuses, nothing is recorded and its reply is returned. If it
-- passes, the hold is tried exactly as hold.lua; a hold that does not fit leaves the admission in place (the
-- caller may retry the hold with an exact count or a lower output cap, or release the leases).
-- KEYS[1] = org prefix "{org:<id>}"
-- ARGV = the admit arguments (6 + 5 per scope), then: hold amount, hold ttlMs, then per budget: source, id, limit
-- Returns an admit refusal as admit.lua | {1, 1, available after} | {1, 0, 'plan' | 'budget', available}
--#include util
--#include holds
--#include admission
--#include hold-place

local p = KEYS[1]
local admitted = admission(p, ARGV)
if admitted[1] ~= 1 then
  return admitted
end
local h = 7 + tonumber(ARGV[6]) * 5
local held = place_hold(p, ARGV[2], ARGV[h], tonumber(ARGV[3]), tonumber(ARGV[h + 1]), ARGV, h + 2)
if held[1] == 1 then
  return {1, 1, held[2]}
end
return {1, 0, held[2], held[3]}
