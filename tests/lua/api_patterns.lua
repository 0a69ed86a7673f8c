-- Ordinary pattern use passes the sandbox's complexity guard.
local y, m, d, h, mi = ("2026-12-02T15:20:33"):match("^(%d+)-(%d+)-(%d+)T(%d+):(%d+)")
assert(y == "2026" and m == "12" and mi == "20")
local words = {}
for w in ("train infer notebook"):gmatch("%a+") do words[#words + 1] = w end
assert(#words == 3 and words[3] == "notebook")
assert(("x-y-z"):gsub("-", "+") == "x+y+z")
assert(string.find("a.b", ".", 1, true) == 2)                      -- plain find
assert(("[x]"):find("[%]]") == 3)
assert(("f(a(b)c)"):match("%b()") == "(a(b)c)")
local row = string.rep("abc", 60) .. ",12,xyz"
local a, n, z = row:match("(%w+),(%d+),(%w+)")
assert(#a == 180 and n == "12" and z == "xyz")
-- and the guard refuses the pathological case with a clear message
local ok, err = pcall(string.find, string.rep("a", 40), string.rep("a*", 12) .. "b")
assert(not ok and err:find("pattern too complex for the sandbox"), err)
