-- hit: fixed-window counter. KEYS[1] = the window's bucket key; ARGV[1] = ms until the bucket may vanish.
local c = redis.call('INCR', KEYS[1])
if c == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return c
