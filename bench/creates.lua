-- wrk script for the codes bench: POST /v1/links with a destination no other request has
-- (the hash strategy would otherwise measure nothing but collisions), and the same JSON
-- report line as bench/paths.lua. Headers given with -H (the admin key) are in wrk.headers.
local counter = 0
local prefix = ""

function init(args)
  prefix = args[1] or tostring(math.random(1e9))
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  local body = '{"destination":"https://bench.example/' .. prefix .. '/' .. counter .. '"}'
  return wrk.format("POST", "/v1/links", nil, body)
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
