-- hold: atomic credit hold. Drops expired holds, then refuses if amount > balance - held (plan) or if a
-- budget's spent + held-for-scope + amount > limit (budget); else records the hold with its expiry.
-- Idempotent per requestId: a request that already holds, or was already settled, gets ok unchanged.
-- KEYS[1] = org prefix
-- ARGV = requestId, amount, now, ttlMs, then per budget: source, id, limit
-- Returns {1, available after} | {0, 'plan' | 'budget', available}
--#include util
--#include holds
--#include hold-place

return place_hold(KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV, 5)
