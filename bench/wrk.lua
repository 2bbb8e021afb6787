-- wrk's side of bench/run.ts: the requests come from a file the run writes, one per line as
-- "METHOD<TAB>PATH<TAB>BODY" (BODY may be empty), sent in order and from the start again at the
-- end. Headers come as "name: value" lines in a second file. `done` prints one JSON line.
-- wrk asks for one request before the run and never sends it: the first line is sent first only
-- on the second round.
local requests = {}
local at = 0

local function lines(path)
  local f = assert(io.open(path, "r"))
  local all = {}
  for line in f:lines() do all[#all + 1] = line end
  f:close()
  return all
end

function init(args)
  local headers = {}
  for _, line in ipairs(lines(args[2])) do
    local name, value = line:match("^([^:]+):%s*(.*)$")
    if name then headers[name] = value end
  end
  for _, line in ipairs(lines(args[1])) do
    local method, path, body = line:match("^(%u+)\t([^\t]*)\t?(.*)$")
    if body == "" then body = nil end
    requests[#requests + 1] = wrk.format(method, path, headers, body)
  end
end

function request()
  at = at % #requests + 1
  return requests[at]
end

function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d,"non2xx":%d,"bytes":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status, summary.bytes))
end
