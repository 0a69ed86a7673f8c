-- drasim.dist: random distributions drawn from the run's seeded stream
-- (drasim.random and friends), so the same scenario seed gives the same
-- draws. Durations are in seconds.
--   local dist = require "drasim.dist"
--   dist.poisson(4.5)                       -- a count
--   dist.exponential(600)                   -- mean 600 s
--   dist.lognormal{median = 2700, sigma = 0.8}
--   dist.pareto(60, 1.5)                    -- scale (minimum) 60 s, shape 1.5
--   local d = dist.empirical_csv("durations.csv", "seconds"); d()
local M = {}

local random, exp, log, floor = drasim.random, math.exp, math.log, math.floor

local function check(cond, msg) if not cond then error(msg, 3) end end

-- Poisson-distributed count with mean `lambda` (Knuth's product method; a large
-- mean is split into parts of at most 30 so that exp(-lambda) never underflows).
function M.poisson(lambda)
  check(type(lambda) == "number" and lambda >= 0 and lambda < 1e7, "poisson: lambda must be a number in [0, 1e7)")
  local n = 0
  while lambda > 0 do
    local part = math.min(lambda, 30)
    lambda = lambda - part
    local limit, p = exp(-part), random()
    while p > limit do
      n = n + 1
      p = p * random()
    end
  end
  return n
end

function M.exponential(mean)
  check(type(mean) == "number" and mean > 0, "exponential: mean must be a positive number")
  return drasim.exponential(mean)
end

-- lognormal{median=, sigma=} or lognormal{mu=, sigma=} (mu = log(median)).
function M.lognormal(p)
  check(type(p) == "table", "lognormal: expected {median=..., sigma=...}")
  local mu = p.mu or (p.median and log(p.median))
  check(type(mu) == "number", "lognormal: give median (> 0) or mu")
  return drasim.lognormal(mu, p.sigma or 1)
end

-- Pareto with scale xm (the minimum) and shape alpha: xm / U^(1/alpha).
function M.pareto(xm, alpha)
  check(type(xm) == "number" and xm > 0, "pareto: scale must be a positive number")
  check(type(alpha) == "number" and alpha > 0, "pareto: shape must be a positive number")
  return xm / (1 - random()) ^ (1 / alpha)
end

function M.uniform(a, b)
  check(type(a) == "number" and type(b) == "number" and a <= b, "uniform: expected a <= b")
  return a + (b - a) * random()
end

function M.normal(mean, stddev) return drasim.normal(mean or 0, stddev or 1) end

-- A sampler drawing uniformly from a list of values (resampling a trace).
function M.empirical(values)
  check(type(values) == "table" and #values > 0, "empirical: expected a non-empty list of values")
  local n = #values
  return function() return values[drasim.random_int(1, n)] end
end

-- A sampler over column `column` of a CSV file next to the script (read with
-- drasim.csv: no file access from Lua itself). Non-numeric cells are errors.
function M.empirical_csv(path, column)
  local rows, header = drasim.csv(path)
  local found = false
  for _, h in ipairs(header) do found = found or h == column end
  check(found, "empirical_csv: " .. path .. " has no column '" .. tostring(column) .. "'")
  local values = {}
  for i, row in ipairs(rows) do
    local v = row[column]
    check(type(v) == "number", ("empirical_csv: %s row %d: column %s is not a number"):format(path, i, column))
    values[#values + 1] = v
  end
  return M.empirical(values)
end

-- Weighted choice: choice{{weight, value}, ...} returns one value.
function M.choice(items)
  check(type(items) == "table" and #items > 0, "choice: expected a list of {weight, value}")
  local total = 0
  for _, it in ipairs(items) do total = total + it[1] end
  check(total > 0, "choice: the weights must sum to a positive number")
  local x = random() * total
  for _, it in ipairs(items) do
    x = x - it[1]
    if x < 0 then return it[2] end
  end
  return items[#items][2]
end

-- floor(x + 0.5) with a lower bound: handy for counts drawn from continuous laws.
function M.round(x, min) return math.max(min or 0, floor(x + 0.5)) end

return M
