-- An integer's text (tostring, concatenation) is written digit by digit by
-- the vendored Lua (third_party/lua lobject.c, drasim's change 4): it must
-- equal C's printf("%lld"), which string.format('%d') uses, at every edge.
local vals = {0, 1, -1, 9, 10, -10, 99, 100, -100, 12345, -12345, math.maxinteger, math.mininteger,
              math.maxinteger - 1, math.mininteger + 1}
for i = 0, 62 do
  vals[#vals + 1] = 1 << i
  vals[#vals + 1] = -(1 << i)
  vals[#vals + 1] = (1 << i) - 1
  vals[#vals + 1] = 1 - (1 << i)
end
for _, v in ipairs(vals) do
  local want = string.format("%d", v)
  assert(tostring(v) == want, tostring(v) .. " ~= " .. want)
  assert("g" .. v == "g" .. want)
end
assert(tostring(3.0) == "3.0" and tostring(-0.5) == "-0.5" and tostring(1e100) == "1e+100")
