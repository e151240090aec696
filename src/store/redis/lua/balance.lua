-- balance: drops expired holds (as of ARGV[1] = now) and returns {balance, held}.
-- KEYS[1] = org prefix
--#include util
--#include holds

hold_purge(KEYS[1], tonumber(ARGV[1]))
local bal, held = balance_view(KEYS[1])
return {bal, held}
