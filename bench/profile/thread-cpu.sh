#!/usr/bin/env bash
# Where one server's CPU goes, thread by thread: the server alone on core 0 (hop at its
# defaults, as `npm start` runs it, or the bare ceiling), wrk on core 1, closed loop; each
# thread's CPU time (schedstat, ns) over the window divided by the requests answered. Not
# the paired measure (a server alone gets a whole core, and the VM's speed moves between
# runs): it tells which of a server's threads a request costs, and how much each. Run from
# the repository root, as root, after `npm run build` and with a seeded store (a bench run
# with BENCH_SEED_DIR leaves one: <dir>/seed-10000 holds hop.db and codes.txt).
#
#   bench/profile/thread-cpu.sh <seed dir> <paths file> <seconds> <ceiling | hop:<checkout>>
#
# HEADERS: headers for every request, one a line (`Name: value`), as cpu-per-request.sh
# takes them. Threads are named by their id's offset from the process's: +0 is the event
# loop. Under `perf`, a few just after it ran V8's garbage collection and compiling; hop's
# worker threads (link inserts, checkpoints, aggregator, integrations) come later, and
# `perf record -p <pid>` tells which is which.
set -euo pipefail
source "$(dirname "$0")/common.sh"
readLoadHeaders -H
seed=$(realpath "$1"); paths=$(realpath "$2"); seconds=$3; server=$4
root=$(pwd)
work=$(mktemp -d)
port=9331
pid=
cleanup() {
  if [[ -n $pid ]]; then
    kill -TERM "$pid" 2>/dev/null || true
    # hop flushes and folds on SIGTERM; a server still up after 10 s is stopped.
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/data"
case $server in
  ceiling) taskset -c 0 node --import tsx bench/ceiling-server.ts "$seed/codes.txt" "$port" >"$work/log" 2>&1 & ;;
  hop:*)
    cp "$seed/hop.db" "$work/data/"
    checkout=$(realpath "${server#hop:}")
    (cd "$checkout" && HOP_DATA_DIR="$work/data" HOP_PORT=$port taskset -c 0 npm start --silent) >"$work/log" 2>&1 & ;;
  *) echo "unknown server: $server" >&2; exit 2 ;;
esac
for _ in $(seq 300); do curl -s -o /dev/null "127.0.0.1:$port/healthz" && break; sleep 0.1; done
pid=$(pidOn "$port")
if [[ -z $pid ]]; then echo "the server did not start: $(tail -3 "$work/log")" >&2; exit 1; fi
drive() {
  taskset -c 1 wrk -t1 -c50 -d"$1"s ${loadHeaders[@]+"${loadHeaders[@]}"} -s "$root/bench/paths.lua" \
    "http://127.0.0.1:$port" -- "$paths"
}
snapshot() {
  for task in /proc/"$pid"/task/*; do
    echo "$(basename "$task") $(awk '{ print $1 }' "$task/schedstat")"
  done | sort
}
drive 5 >/dev/null
snapshot >"$work/before"
drive "$seconds" >"$work/wrk"
snapshot >"$work/after"
requests=$(grep -o '"requests":[0-9]*' "$work/wrk" | cut -d: -f2)
non2xx=$(grep -o '"non2xx3xx":[0-9]*' "$work/wrk" | cut -d: -f2)
echo "$server: $requests requests in ${seconds} s ($((requests / seconds))/s), $non2xx not 2xx or 3xx"
join "$work/before" "$work/after" | awk -v requests="$requests" -v pid="$pid" '
  { used = $3 - $2; total += used
    if (used / 1000 / requests >= 0.01) printf "  thread +%-4d %8.2f µs a request\n", $1 - pid, used / 1000 / requests }
  END { printf "  all threads  %8.2f µs a request\n", total / 1000 / requests }'
