-- drasim.rate: arrival-rate curves and a Poisson process that follows them.
--   local rate = require "drasim.rate"
--   local r = rate.diurnal{mean = 30, amplitude = 0.6, peak = "14h"}  -- arrivals per hour
--   r(drasim.now()), r.max                                             -- current and peak rate
--   rate.arrivals(r, function(t) drasim.submit{...} end)
-- Rates are arrivals per HOUR; times are simulated seconds.
local M = {}

local function check(cond, msg) if not cond then error(msg, 3) end end

local DAY = 86400

-- A rate curve: callable as r(t) (arrivals per hour at time t), with r.max its peak.
local function curve(f, max)
  return setmetatable({max = max}, {__call = function(_, t) return f(t) end})
end
M.curve = curve

-- A day-periodic rate: mean * (1 + amplitude * cos(2 pi (t - peak) / 1 day)),
-- highest at `peak` (time of day, e.g. "14h"), never negative.
function M.diurnal(p)
  check(type(p) == "table" and type(p.mean) == "number" and p.mean >= 0, "diurnal: expected {mean = arrivals per hour, ...}")
  local amp = p.amplitude or 0.5
  check(type(amp) == "number" and amp >= 0 and amp <= 1, "diurnal: amplitude must be in [0, 1]")
  local peak = p.peak and drasim.duration(p.peak) or 14 * 3600
  local mean = p.mean
  return curve(function(t)
    return math.max(0, mean * (1 + amp * math.cos(2 * math.pi * (t - peak) / DAY)))
  end, mean * (1 + amp))
end

-- A constant rate (arrivals per hour).
function M.constant(per_hour)
  check(type(per_hour) == "number" and per_hour >= 0, "constant: expected arrivals per hour")
  return curve(function() return per_hour end, per_hour)
end

-- Piecewise-constant rate from {{"0h", 10}, {"8h", 40}, {"18h", 10}} repeating every `period` (default 1 day).
function M.steps(points, period)
  check(type(points) == "table" and #points > 0, "steps: expected a list of {time, rate}")
  period = period and drasim.duration(period) or DAY
  local pts, max = {}, 0
  for i, p in ipairs(points) do
    pts[i] = {drasim.duration(p[1]), p[2]}
    check(type(p[2]) == "number" and p[2] >= 0, "steps: rates must be non-negative numbers")
    max = math.max(max, p[2])
  end
  return curve(function(t)
    local x, r = t % period, pts[#pts][2]
    for _, p in ipairs(pts) do if x >= p[1] then r = p[2] end end
    return r
  end, max)
end

-- A non-homogeneous Poisson process following the curve r (see diurnal, steps,
-- constant, curve), by thinning: candidates arrive at the peak rate r.max and
-- each is kept with probability r(t) / r.max. Calls fn(t) for every arrival
-- until opts.stop (default: the scenario's stop time).
function M.arrivals(r, fn, opts)
  check(type(r) == "table" and type(r.max) == "number" and r.max >= 0, "arrivals: expected a rate curve (rate.diurnal{...})")
  check(type(fn) == "function", "arrivals: expected a function to call per arrival")
  local stop = opts and opts.stop and drasim.duration(opts.stop) or drasim.stop_time
  if r.max == 0 then return end
  local mean_gap = 3600 / r.max
  local function next_candidate()
    local t = drasim.now() + drasim.exponential(mean_gap)
    if t >= stop then return end
    drasim.at(t, function()
      if drasim.random() * r.max < r(drasim.now()) then fn(drasim.now()) end
      next_candidate()
    end)
  end
  next_candidate()
end

return M
