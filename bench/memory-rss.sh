#!/usr/bin/env bash
# Resident memory of one gateway process (embedded LMDB store) right after start-up.
# usage: bench/memory-rss.sh <workers.min> <workers.max> [settle seconds]
# Prints VmRSS / VmHWM (MiB) and the threads count. Needs `make build`.
set -euo pipefail
cd "$(dirname "$0")/.."
min=${1:-1}; max=${2:-2}; settle=${3:-3}
dir=$(mktemp -d)
port=$(node -e 's=require("net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})')
dport=$(node -e 's=require("net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})')
echo "{\"workers\":{\"min\":$min,\"max\":$max}}" > "$dir/config.json"
SVC_CONFIG="$dir/config.json" SVC_GUARDRAILS_MODE=${SVC_GUARDRAILS_MODE:-monitor} SVC_DEV_BOOTSTRAP=${BOOTSTRAP:-true} SVC_PORT=$port SVC_DASHBOARD_PORT=$dport SVC_DATA_DIR="$dir/data" \
  node dist/src/main.js > "$dir/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
sleep "$settle"
rss=$(awk '/VmRSS/{print $2}' /proc/$pid/status); hwm=$(awk '/VmHWM/{print $2}' /proc/$pid/status)
thr=$(awk '/Threads/{print $2}' /proc/$pid/status)
echo "workers=$min..$max rss_mib=$((rss/1024)) hwm_mib=$((hwm/1024)) os_threads=$thr port=$port"
if [ -n "${LOAD_SECONDS:-}" ]; then
  key=$(grep -o 'sk-svc-[A-Za-z0-9_-]*' "$dir/log" | head -1)
  npx autocannon -c 16 -d "$LOAD_SECONDS" -m POST -H "authorization: Bearer $key" -H 'content-type: application/json' \
    -b '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say hello in five words."}]}' \
    "http://127.0.0.1:$port/v1/chat/completions" > "$dir/ac" 2>&1 || true
  grep -E "requests in|2xx" "$dir/ac" | head -4
  rss=$(awk '/VmRSS/{print $2}' /proc/$pid/status); hwm=$(awk '/VmHWM/{print $2}' /proc/$pid/status)
  echo "after ${LOAD_SECONDS}s load: rss_mib=$((rss/1024)) hwm_mib=$((hwm/1024))"
fi
