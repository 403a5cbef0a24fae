#!/usr/bin/env bash
# Paired CPU per request (ADR 0142): two servers on core 0 at once, each offered the same
# fixed rate by its own open loop (bench/open-loop.ts) on core 1; each one's CPU time (all
# its threads, from /proc) over the window divided by the requests it answered. Neither is
# saturated, so the figures are their costs per request, measured in the same seconds; the
# ceiling against itself gives 1.000. Run from the repository root, as root, after
# `npm run build` (and a seeded store: `npm run bench -- hot` with BENCH_SEED_DIR).
#
#   bench/profile/cpu-per-request.sh <seed dir> <paths file> <rate> <seconds> <A> <B>
#
# A and B: `ceiling`, `hop:<checkout>[:NAME=value,NAME=value]` (its dist/cli/hop.js serve on a
# copy of the seed's hop.db, at its defaults plus those settings), or `cmd:<command>` (run
# with PORT and DATA set). NODE_FLAGS go to both hops' node (e.g. --cpu-prof
# --cpu-prof-dir=DIR for one profile per thread, or --perf-basic-prof for `perf record`).
# CREATES=N adds N creates/s through the API beside each load (the open loop's, with a
# bootstrap admin key given to both hops), as `mixed` does. SETTLE=N waits N idle seconds
# after the load before reading the CPU (see below). HEADERS: headers for every load request,
# one a line (`Name: value`), as a browser's (the smart and analytics scenarios' own).
set -euo pipefail
source "$(dirname "$0")/common.sh"
readLoadHeaders --header
seed=$(realpath "$1"); paths=$(realpath "$2"); rate=$3; seconds=$4; shift 4
root=$(pwd)
work=$(mktemp -d)
trap 'kill -TERM ${pids[*]:-} 2>/dev/null || true; rm -rf "$work"' EXIT
start() { # spec port dir
  local spec=$1 port=$2 dir=$3
  mkdir -p "$dir/data"
  cp "$seed/hop.db" "$dir/data/"
  case $spec in
    ceiling) taskset -c 0 node --import tsx bench/ceiling-server.ts "$seed/codes.txt" "$port" >"$dir/log" 2>&1 & ;;
    hop:*)
      local rest=${spec#hop:} settings=()
      [[ $rest == *:* ]] && IFS=',' read -r -a settings <<<"${rest#*:}"
      env "${settings[@]}" ${CREATES:+HOP_BOOTSTRAP_ADMIN_KEY=$createKey} HOP_DATA_DIR="$dir/data" HOP_PORT="$port" \
        taskset -c 0 node ${NODE_FLAGS:-} "${rest%%:*}/dist/cli/hop.js" serve >"$dir/log" 2>&1 & ;;
    cmd:*) PORT=$port DATA=$dir/data taskset -c 0 bash -c "${spec#cmd:}" >"$dir/log" 2>&1 & ;;
    *) echo "unknown server: $spec" >&2; exit 2 ;;
  esac
}
# CPU time in ns from schedstat, not /proc/*/stat's 10 ms ticks: a tick goes to whichever
# thread runs when the timer fires, and that favours threads a timer wakes (hop's background
# threads: 71 ticks where schedstat measured 76 ms in one run, BENCHMARKS.md 2026-12-06).
cpuOf() { awk '{ ns += $1 } END { printf "%d", ns }' /proc/"$1"/task/*/schedstat; }
# The main thread's alone (its task id is the process id): the event loop's share.
mainOf() { awk '{ printf "%d", $1 }' /proc/"$1"/task/"$1"/schedstat; }
createKey=hop_bench_admin_key_0123456789abcdef
drive() { taskset -c 1 node --import tsx bench/open-loop.ts --url "http://127.0.0.1:$1" \
  ${CREATES:+--creates-per-second "$CREATES" --create-key "$createKey"} \
  --paths "$paths" --rate "$rate" --connections 20 --seconds "$2" ${loadHeaders[@]+"${loadHeaders[@]}"} | tail -1; }
start "$1" 9321 "$work/a"
start "$2" 9322 "$work/b"
for port in 9321 9322; do
  for _ in $(seq 300); do curl -s -o /dev/null "127.0.0.1:$port/healthz" && break; sleep 0.1; done
done
pids=("$(pidOn 9321)" "$(pidOn 9322)")
drive 9321 "${WARM:-3}" >/dev/null & warm=$!; drive 9322 "${WARM:-3}" >/dev/null; wait $warm
a0=$(cpuOf "${pids[0]}"); b0=$(cpuOf "${pids[1]}"); am0=$(mainOf "${pids[0]}"); bm0=$(mainOf "${pids[1]}")
drive 9321 "$seconds" >"$work/a.json" & first=$!; drive 9322 "$seconds" >"$work/b.json"; wait $first
# SETTLE=N: N seconds more, without load, before the CPU is read, so that work a server put
# off (clicks queued and not yet folded) is counted too; idle, each costs next to nothing.
sleep "${SETTLE:-0}"
a1=$(cpuOf "${pids[0]}"); b1=$(cpuOf "${pids[1]}"); am1=$(mainOf "${pids[0]}"); bm1=$(mainOf "${pids[1]}")
echo "CPU over the window, ms: main thread A $(((am1 - am0) / 1000000)), B $(((bm1 - bm0) / 1000000)); all threads A $(((a1 - a0) / 1000000)), B $(((b1 - b0) / 1000000))"
node -e '
const [a, b, da, db] = process.argv.slice(1);
const fs = require("node:fs");
const load = [JSON.parse(fs.readFileSync(a, "utf8")), JSON.parse(fs.readFileSync(b, "utf8"))];
const us = [Number(da), Number(db)].map((ns, i) => ns / 1000 / load[i].requests);
for (const [i, name] of ["A", "B"].entries())
  console.log(`${name}: ${us[i].toFixed(2)} µs of CPU per request (${load[i].requests} answered, p99 ${load[i].p99} ms, errors ${load[i].errors}${load[i].creates === undefined ? "" : `, creates ${load[i].creates}, failed ${load[i].createErrors}`})`);
console.log(`B/A: ${(us[1] / us[0]).toFixed(3)}`);
' "$work/a.json" "$work/b.json" $((a1 - a0)) $((b1 - b0))
