-- Every request asks for `path` at an address of its own (`visit=<thread>-<n>` added to its query,
-- a parameter the pages ignore), so none can reuse an earlier request's read (PageReadMemo): the
-- session and the page are read from the database each time. bench.py and scale.py set `path`.
local threads = 0
setup = function(thread)
  threads = threads + 1
  thread:set("id", threads)
end

local separator = string.find(path, "?", 1, true) and "&" or "?"
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", path .. separator .. "visit=" .. id .. "-" .. n)
end
