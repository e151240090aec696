/**
 * Redis key layout. Everything that belongs to an organization lives under the hash tag `{org:<id>}` so one
 * script touches one slot (Redis Cluster). The Lua scripts receive the prefix as KEYS[1] and derive the same
 * names (see the header of each script); the names built here must match them.
 *
 * Outside any org tag, read with plain single-key commands:
 *   orgs               SET of org ids
 *   keyhash:<sha256>   JSON [orgId, keyId]
 *   kv:<key>           JSON value (PX ttl)
 *   kvg:<group>        LIST of the kv keys of a capped group, oldest first (kvSetCapped; the group names its hash tag)
 *   set:<key>          string set (SADD/SREM/SMEMBERS)
 *   hit:<key>:<n>      fixed-window counter for window number n
 */
export const orgPrefix = (orgId: string): string => `{org:${orgId}}`;

export const K = {
  orgIndex: 'orgs',
  keyHash: (hash: string): string => `keyhash:${hash}`,
  kv: (key: string): string => `kv:${key}`,
  kvGroup: (group: string): string => `kvg:${group}`,
  set: (key: string): string => `set:${key}`,
  hit: (key: string, bucket: number): string => `hit:${key}:${bucket}`,

  org: (orgId: string): string => `${orgPrefix(orgId)}:org`,
  team: (orgId: string, teamId: string): string => `${orgPrefix(orgId)}:team:${teamId}`,
  teamIndex: (orgId: string): string => `${orgPrefix(orgId)}:teams`,
  key: (orgId: string, keyId: string): string => `${orgPrefix(orgId)}:key:${keyId}`,
  keyIndex: (orgId: string): string => `${orgPrefix(orgId)}:keys`,
  spend: (orgId: string, group: string): string => `${orgPrefix(orgId)}:sp:${group}`,
  ledger: (orgId: string): string => `${orgPrefix(orgId)}:ledger`,
  ledgerIndex: (orgId: string): string => `${orgPrefix(orgId)}:ledidx`,
} as const;
