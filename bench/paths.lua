-- wrk script: cycle through a file of request paths, from a random start; print throughput
-- and latency percentiles as one JSON line at the end (the line every bench driver prints).
-- Fixed-rate scenarios do not use wrk: it is closed-loop (bench/open-loop.ts is not).
-- Every request is formatted once in init(): wrk.format per request costs this one core
-- more than the servers' answers do, and would make wrk the limit instead of the server.
-- Headers given to wrk with -H are in wrk.headers, so wrk.format() puts them in every one.
local requests = {}
local index = 1

-- wrk's LuaJIT seeds math.random the same way in every process: unseeded, every run would
-- start at the same path, and a measured window would repeat its warm-up's paths (uniform's
-- L1 hits then depend on what the warm-up left there, differently for each side of a pair).
local function seedFromUrandom()
  local urandom = assert(io.open("/dev/urandom", "rb"))
  local a, b, c = urandom:read(3):byte(1, 3)
  urandom:close()
  math.randomseed(a * 65536 + b * 256 + c)
end

function init(args)
  for line in io.lines(args[1]) do requests[#requests + 1] = wrk.format("GET", line) end
  seedFromUrandom()
  index = math.random(#requests)
end

function request()
  index = index + 1
  if index > #requests then index = 1 end
  return requests[index]
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  io.write(string.format(
    '{"requests":%d,"rps":%.1f,"p50":%.3f,"p80":%.3f,"p99":%.3f,"errors":%d,"non2xx3xx":%d}\n',
    summary.requests, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(80) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
end
