-- A precompiled chunk (the header of Lua 5.4 bytecode) must be refused.
local f, err = load("\27LuaT\0\25\147\r\n\26\n\4\8\8xV\0\0\0\0\0\0\0\0\0\0\0(w@\1", "=bytes", "b")
assert(f == nil, "a binary chunk was loaded")
error("refused: " .. err)
