-- drasim.template (lua_pods.c): a template's pods are the pods drasim.submit{...}
-- would make from the same fields (tests/unit/test_lua.c test_template):
--   class 0 "t": cpu 1, memory 1Gi: t-0 (submit{}), t-1 .. t-3 (template), x (template,
--                own name), t-4 (template, after the original changed), t-6 (a second template);
--   class 1 "t": cpu 1, memory 2Gi: t-5 (the changed table, submit{});
-- 8 pods in 2 classes of 7 and 1. Durations: t-1 30 s, the others 60 s; t-2 at 100 s.
local req = {memory = "1Gi"}
local pod = {group = "t", cpu = "1", duration = 60, requests = req}
drasim.submit(pod)                                         -- t-0
local t = drasim.template(pod)
assert(getmetatable(t) == "drasim.template")
assert(drasim.submit(t, {duration = 30}) == "t-1")         -- the pod's own duration wins
assert(drasim.submit(t, {at = 100}) == "t-2")              -- the template's duration
drasim.submit(t)                                           -- t-3: no table, all from the template
local started = {}
assert(drasim.submit(t, {name = "x", on_start = function(n) started[#started + 1] = n end}) == "x")
req.memory = "2Gi"                                         -- the template kept a copy
assert(drasim.submit(t) == "t-4")
assert(drasim.submit(pod) == "t-5")                        -- the changed table: another shape
-- a per-pod table with __index gives its fields through it
local lazy = setmetatable({}, {__index = function(_, k) if k == "duration" then return 60 end end})
assert(drasim.submit(drasim.template{group = "t", cpu = "1", requests = {memory = "1Gi"}}, lazy) == "t-6")
-- errors name the call
local ok, err = pcall(drasim.submit, t, {cpu = "2"})
assert(not ok and err:find("field 'cpu' belongs to the template", 1, true), err)
ok, err = pcall(drasim.submit, t, {wat = 1})
assert(not ok and err:find("unknown field 'wat'", 1, true), err)
ok, err = pcall(drasim.submit, t, 5)
assert(not ok and err:find("a pod of a template: expected a table", 1, true), err)
ok, err = pcall(drasim.submit, drasim.template{cpu = "1"}, {})
assert(not ok and err:find("missing field 'duration'", 1, true), err)
ok, err = pcall(drasim.submit, drasim.template{cpu = "lots", duration = 1})   -- checked at its first pod
assert(not ok and err:find("invalid quantity 'lots'", 1, true), err)
ok, err = pcall(drasim.template, {cpu = "1", wat = 1})
assert(not ok and err:find("drasim.template: unknown field 'wat'", 1, true), err)
ok, err = pcall(drasim.template, 5)
assert(not ok and err:find("drasim.template: expected a pod table", 1, true), err)
local deep = {} deep.d = deep
ok, err = pcall(drasim.template, {cpu = "1", nodeSelector = deep})
assert(not ok and err:find("nodeSelector: nested too deeply", 1, true), err)
drasim.after(1, function() assert(#started == 1 and started[1] == "x") end)
