-- CPU-time bombs in C functions (issue 10): each case is drasim.args.case.
local case = drasim.args.case
if case == "rep_empty" then
  assert(string.rep("", math.maxinteger) == "" and ("").rep("", math.maxinteger, "") == "")
elseif case == "table_move" then
  table.move({}, 1, math.maxinteger, 2)
elseif case == "gc_loop" then
  setmetatable({}, {__gc = function() while true do end end})
elseif case == "pairs_loop" then
  local t = {}
  for i = 1, 10000 do t["k" .. i] = i end
  for _ = 1, 1e9 do for _ in pairs(t) do break end end
elseif case == "sorted_keys" then
  local t, n = {}, 100000
  for i = n, 1, -1 do t[string.format("k%07d", i)] = i end
  local keys = drasim.sorted_keys(t)
  assert(#keys == n and keys[1] == "k0000001" and keys[n] == string.format("k%07d", n))
  for i = 2, n do assert(keys[i - 1] < keys[i]) end
elseif case == "running" then
  for i = 1, 20000 do drasim.submit{group = "g", cpu = "1m", duration = 3600} end
  drasim.at(1, function()
    local r = 0
    for _ = 1, 200000 do r = drasim.running("g") + drasim.pending("g") end
    assert(r == 20000, r)
  end)
elseif case == "balanced" then
  local s = string.rep("(", 1000000)
  return s:find("%b()")
elseif case == "plain_find" then
  local s, p = string.rep("a", 20000000), string.rep("a", 10000000) .. "b"
  assert(s:find(p, 1, true) == nil and s:find(p) == nil)
  assert(s:find("aab", 1, true) == nil and ("xaab"):find("aab", 1, true) == 2)
  return s:match(p)
elseif case == "endless" then
  while true do end
elseif case == "endless_coroutine" then
  coroutine.wrap(function() pcall(function() while true do end end) while true do end end)()
elseif case == "collect_loop" then
  local keep = {}
  for i = 1, 200000 do keep[i] = {i} end
  for _ = 1, 1e9 do collectgarbage() end
elseif case == "alloc_fail_loop" then   -- every refused allocation costs Lua a full collection
  local keep = {}
  pcall(function() for i = 1, 1e9 do keep[i] = ("x"):rep(1000) .. i end end)
  for _ = 1, 1e9 do pcall(string.rep, "y", 100000) end
elseif case == "same_instant_chain" then   -- each callback is cheap, time never advances
  local function again() drasim.after(0, again) end
  again()
elseif case == "insert_front" then
  local t = {}
  for i = 1, 100000 do t[i] = i end
  for _ = 1, 1e9 do table.insert(t, 1, 0) table.remove(t, 1) end
end
