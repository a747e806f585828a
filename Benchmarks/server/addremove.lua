-- Add-then-remove of a wishlist item, signed in, with CSRF. bench.py prepends:
--   cookie = "wishlist_session=..."; csrf = "..."; books = { "isbn", ... }
-- Run with as many threads as connections (-t N -c N): each wrk thread then owns one connection
-- and one book, so its requests and responses strictly alternate and two loops never race on the
-- same item. A loop: POST /wishlist (add; the 303 sets wishlist_flash=added-<item id>), then
-- POST /wishlist/<item id>/delete; if an add answers "already-<id>" (a leftover), that id is deleted.
local thread_count = 0
function setup(thread)
  thread_count = thread_count + 1
  thread:set("book_index", thread_count)
end

local pending = nil
local headers = { ["Cookie"] = cookie, ["Content-Type"] = "application/x-www-form-urlencoded" }

request = function()
  if pending then
    return wrk.format("POST", "/wishlist/" .. pending .. "/delete", headers, "csrf_token=" .. csrf)
  end
  local book = books[((book_index or 1) - 1) % #books + 1]
  return wrk.format("POST", "/wishlist", headers, "book=" .. book .. "&return_to=%2Fwishlist&csrf_token=" .. csrf)
end

response = function(status, response_headers, body)
  if pending then
    pending = nil
    return
  end
  local flash = response_headers["Set-Cookie"] or response_headers["set-cookie"] or ""
  pending = flash:match("wishlist_flash=added%-(%d+)") or flash:match("wishlist_flash=already%-(%d+)")
end
