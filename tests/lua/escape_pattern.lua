-- A backtracking bomb: 25 optional items then 25 required ones on 25 bytes
-- would run for hours inside Lua's C matcher, out of the instruction hook's reach.
string.find(string.rep("a", 25), string.rep("a?", 25) .. string.rep("a", 25) .. "b")
