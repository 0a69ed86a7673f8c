-- drasim.csv_rows with declared types and drasim.parse_time (tests/lua20/rows.csv).
local function eq(a, b, what) if a ~= b then error(what .. ": expected " .. tostring(b) .. ", got " .. tostring(a), 2) end end
eq(drasim.parse_time("1970-01-01T00:00:00Z"), 0, "epoch")
eq(drasim.parse_time("2024-05-01T00:00:00Z"), 1714521600, "2024-05-01")
eq(drasim.parse_time("2024-05-01 02:00:00+02:00"), 1714521600, "offset")
eq(drasim.parse_time("2024-05-01"), 1714521600, "date only")
eq(drasim.parse_time("2024-02-29T12:00:00.25Z") - drasim.parse_time("2024-02-29"), 43200.25, "fraction")
local rows, header = {}, nil
local it, hdr = drasim.csv_rows("rows.csv", {types = {submit = "time", gpus = "integer", duration = "duration", flag = "boolean"}})
eq(table.concat(hdr, ","), "id,submit,gpus,duration,note,flag", "header")
for row in it do rows[#rows + 1] = row end
eq(#rows, 2, "rows")
eq(rows[1].id, "007", "no guessing: 007 stays a string")
eq(math.type(rows[1].gpus), "integer", "gpus typed integer")
eq(rows[1].duration, 300, "duration 5m")
eq(rows[2].duration, 90, "duration 90")
eq(rows[1].note, 'a, "quoted"\nnote', "quoted field across lines")
eq(rows[2].note, "", "empty string column")
eq(rows[1].flag, true, "boolean")
eq(rows[2].submit - rows[1].submit, 90.5, "time difference")
local t0 = rows[1].submit
for _, r in ipairs(rows) do
  drasim.submit{name = "job-" .. r.id, at = r.submit - t0, cpu = tostring(r.gpus), duration = r.duration}
end
