-- not an ISO 8601 time
local t = drasim.parse_time("2024-13-01T00:00:00Z")
