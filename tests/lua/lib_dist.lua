-- The standard library's distributions: sample means and bounds.
local dist = require "drasim.dist"
local rate = require "drasim.rate"
local N = 20000
local function mean(f) local s = 0 for _ = 1, N do s = s + f() end return s / N end
local function near(x, want, tol, what) assert(math.abs(x - want) <= tol, ("%s: %g, want %g"):format(what, x, want)) end
near(mean(function() return dist.poisson(4) end), 4, 0.1, "poisson(4)")
near(mean(function() return dist.poisson(100) end), 100, 0.5, "poisson(100)")
near(mean(function() return dist.exponential(600) end), 600, 20, "exponential")
near(mean(function() return dist.uniform(10, 20) end), 15, 0.1, "uniform")
-- log-normal: the median of the draws
local xs = {}
for i = 1, N do xs[i] = dist.lognormal{median = 100, sigma = 0.5} end
table.sort(xs)
near(xs[N // 2], 100, 3, "lognormal median")
-- Pareto(xm=60, alpha=3): minimum xm, mean alpha*xm/(alpha-1) = 90
local lo = math.huge
near(mean(function() local v = dist.pareto(60, 3) lo = math.min(lo, v) return v end), 90, 3, "pareto mean")
assert(lo >= 60)
-- empirical from CSV: only the table's values, all of them
local d, seen = dist.empirical_csv("durations.csv", "seconds"), {}
for _ = 1, 200 do seen[d()] = true end
assert(seen[600] and seen[1200] and seen[1800] and seen[3600])
for k in pairs(seen) do assert(k == 600 or k == 1200 or k == 1800 or k == 3600) end
-- weighted choice
local c = {a = 0, b = 0}
for _ = 1, N do local k = dist.choice{{1, "a"}, {3, "b"}} c[k] = c[k] + 1 end
near(c.b / N, 0.75, 0.02, "choice weight")
-- diurnal curve: peak at 14h, trough at 2h
local r = rate.diurnal{mean = 10, amplitude = 0.5, peak = "14h"}
near(r(14 * 3600), 15, 1e-9, "diurnal peak")
near(r(2 * 3600), 5, 1e-9, "diurnal trough")
assert(r.max == 15)
local s = rate.steps{{"0h", 1}, {"8h", 5}}
assert(s(3600) == 1 and s(9 * 3600) == 5 and s.max == 5)
-- a thinned Poisson process at a constant 60/h over the 10h run: ~600 arrivals
local n = 0
rate.arrivals(rate.constant(60), function() n = n + 1 end)
drasim.at(drasim.stop_time - 1, function() near(n, 600, 90, "arrivals over 10h") end)
