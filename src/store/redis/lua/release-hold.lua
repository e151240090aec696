-- release-hold: releases a hold without charging (idempotent; an unknown request id is a no-op).
-- KEYS[1] = org prefix; ARGV[1] = requestId
--#include util
--#include holds

hold_release(KEYS[1], ARGV[1])
return 1
