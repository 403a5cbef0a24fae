# Sourced by the scripts in bench/profile: what they share.

# loadHeaders: HEADERS (one `Name: value` a line, as a browser's) as repeated arguments of
# the load generator's header flag, $1: `--header` for bench/open-loop.ts, `-H` for wrk.
readLoadHeaders() {
  loadHeaders=()
  while IFS= read -r header; do
    if [[ -n $header ]]; then loadHeaders+=("$1" "$header"); fi
  done <<<"${HEADERS:-}"
}

# The process listening on TCP port $1 on this machine.
pidOn() { ss -ltnpH "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
