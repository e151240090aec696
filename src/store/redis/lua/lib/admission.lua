-- Needs `--#include util` first. The admission step shared by admit.lua and admit-hold.lua (inlined by
-- `--#include admission`): key-status recheck, exact 60 s sliding windows (RPM, TPM) and concurrency
-- leases, all-or-nothing. `A` holds the admission arguments (see admit.lua). Returns the admit reply.

local function admission(p, A)
  local keyId, rid = A[1], A[2]
  local now, tokens, leaseTtl = tonumber(A[3]), tonumber(A[4]), tonumber(A[5])
  local n = tonumber(A[6])
  local WINDOW = 60000
  local cutoff = now - WINDOW

  local status = redis.call('HGET', p .. ':key:' .. keyId, 'status')
  if not status then
    return {0, 'key_status', 'missing'}
  end
  status = cjson.decode(status)
  if status ~= 'active' then
    return {0, 'key_status', status}
  end

  -- Removes expired TPM entries and subtracts their tokens from the running sum.
  local function purge_tpm(b)
    local old = redis.call('ZRANGEBYSCORE', b .. ':tz', '-inf', cutoff)
    if #old == 0 then
      return
    end
    local freed = 0
    for i = 1, #old, 500 do
      local chunk = {}
      for j = i, math.min(i + 499, #old) do
        chunk[#chunk + 1] = old[j]
      end
      for _, t in ipairs(redis.call('HMGET', b .. ':tt', unpack(chunk))) do
        freed = freed + (tonumber(t) or 0)
      end
      redis.call('HDEL', b .. ':tt', unpack(chunk))
    end
    redis.call('ZREMRANGEBYSCORE', b .. ':tz', '-inf', cutoff)
    redis.call('DECRBY', b .. ':ts', istr(freed))
  end

  -- Time until enough tokens leave the window for `tokens` more to fit under `limit`.
  local function tpm_retry(b, sum, limit)
    if tokens > limit then
      return WINDOW
    end
    local need = sum + tokens - limit
    local start = 0
    while true do
      local page = redis.call('ZRANGE', b .. ':tz', start, start + 99, 'WITHSCORES')
      if #page == 0 then
        return WINDOW
      end
      local ids = {}
      for k = 1, #page, 2 do
        ids[#ids + 1] = page[k]
      end
      local toks = redis.call('HMGET', b .. ':tt', unpack(ids))
      for k = 1, #ids do
        need = need - (tonumber(toks[k]) or 0)
        if need <= 0 then
          return math.max(1, tonumber(page[2 * k]) + WINDOW - now)
        end
      end
      start = start + 100
    end
  end

  local function oldest_score(key)
    local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    return tonumber(first[2])
  end

  local scopes = {}
  for i = 0, n - 1 do
    local a = 7 + i * 5
    local s = {
      src = A[a],
      b = p .. ':w:' .. A[a] .. ':' .. A[a + 1],
      rpm = tonumber(A[a + 2]),
      tpm = tonumber(A[a + 3]),
      conc = tonumber(A[a + 4]),
    }
    scopes[#scopes + 1] = s
    if s.rpm then
      redis.call('ZREMRANGEBYSCORE', s.b .. ':r', '-inf', cutoff)
      if redis.call('ZCARD', s.b .. ':r') >= s.rpm then
        local oldest = oldest_score(s.b .. ':r')
        local retry = oldest and math.max(1, oldest + WINDOW - now) or WINDOW
        return {0, 'rpm', s.src, retry}
      end
    end
    if s.tpm then
      purge_tpm(s.b)
      local sum = tonumber(redis.call('GET', s.b .. ':ts') or '0')
      if sum + tokens > s.tpm then
        return {0, 'tpm', s.src, tpm_retry(s.b, sum, s.tpm)}
      end
    end
    if s.conc then
      redis.call('ZREMRANGEBYSCORE', s.b .. ':l', '-inf', now)
      if redis.call('ZCARD', s.b .. ':l') >= s.conc then
        local earliest = oldest_score(s.b .. ':l')
        local retry = earliest and math.max(1, math.min(1000, earliest - now)) or 1000
        return {0, 'concurrency', s.src, retry}
      end
    end
  end

  -- Window keys vanish a little after their newest entry leaves the window (idle scopes cost nothing).
  local idleMs = WINDOW + 1000
  for _, s in ipairs(scopes) do
    if s.rpm then
      redis.call('ZADD', s.b .. ':r', now, rid)
      redis.call('PEXPIRE', s.b .. ':r', idleMs)
    end
    if s.tpm then
      local old = tonumber(redis.call('HGET', s.b .. ':tt', rid) or '0')
      redis.call('ZADD', s.b .. ':tz', now, rid)
      redis.call('HSET', s.b .. ':tt', rid, A[4])
      redis.call('INCRBY', s.b .. ':ts', istr(tokens - old))
      for _, suffix in ipairs({':tz', ':tt', ':ts'}) do
        redis.call('PEXPIRE', s.b .. suffix, idleMs)
      end
    end
    if s.conc then
      redis.call('ZADD', s.b .. ':l', now + leaseTtl, rid)
      keep(s.b .. ':l', leaseTtl + 1000)
    end
  end
  return {1}
end
