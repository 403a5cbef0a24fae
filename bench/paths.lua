-- wrk script: cycle through a file of request paths; optional pacing for fixed-rate runs;
-- print throughput and latency percentiles as one JSON line at the end.
local paths = {}
local index = 1
local pace_ms = 0

function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  pace_ms = tonumber(args[2] or "0")
  index = math.random(#paths)
end

function request()
  index = index + 1
  if index > #paths then index = 1 end
  return wrk.format("GET", paths[index])
end

function delay()
  return pace_ms
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
