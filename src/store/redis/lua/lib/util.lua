-- Shared helpers, inlined by the loader where a script says `--#include util`.

-- Integer to decimal string. Lua numbers are doubles; tostring() would print 1e+15, which INCRBY rejects.
-- (-0 is mapped to 0: Redis rejects "-0" as an integer.)
local function istr(n)
  if n == 0 then
    return '0'
  end
  return string.format('%.0f', n)
end

-- Sets a key's TTL to at least `ms` (never shortens it), so idle state disappears on its own.
local function keep(key, ms)
  if redis.call('PTTL', key) < ms then
    redis.call('PEXPIRE', key, ms)
  end
end
