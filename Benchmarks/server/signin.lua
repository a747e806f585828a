-- The sign-in storm: POST /login with the right password, over and over. bench.py prepends:
--   username = "..."; password = "..."; visitors = { { cookie = "...", csrf = "..." }, ... }
-- Each visitor is an anonymous session cookie fetched from GET /login with the CSRF token of its
-- page; an anonymous cookie stays valid after a sign-in made with it (the new session gets a new
-- cookie, which wrk ignores), so the pairs are used round-robin for the whole run.
local n = 0
request = function()
  n = n + 1
  local visitor = visitors[(n - 1) % #visitors + 1]
  return wrk.format("POST", "/login",
    { ["Cookie"] = "wishlist_session=" .. visitor.cookie, ["Content-Type"] = "application/x-www-form-urlencoded" },
    "username=" .. username .. "&password=" .. password .. "&next=%2F&csrf_token=" .. visitor.csrf)
end
