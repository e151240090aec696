-- admit: key-status recheck, exact 60 s sliding windows (RPM, TPM) and concurrency leases, all-or-nothing.
-- KEYS[1] = org prefix "{org:<id>}"
-- ARGV = keyId, requestId, now, tokens, leaseTtlMs, nScopes, then per scope: source, id, rpm, tpm, maxConc
--        (an empty limit means none).
-- Per scope b = p:w:<source>:<id>:
--   b:r   ZSET requestId -> ts                       (RPM window)
--   b:tz  ZSET requestId -> ts, b:tt HASH requestId -> tokens, b:ts running token sum   (TPM window)
--   b:l   ZSET requestId -> lease expiry             (concurrency)
-- An entry counts while ts > now - 60000; a lease while expiry > now.
-- Returns {1} | {0, 'key_status', status} | {0, kind, source, retryAfterMs}
--#include util
--#include admission

return admission(KEYS[1], ARGV)
