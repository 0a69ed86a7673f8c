-- Runs the Lua text in drasim.args.code (used by test_lua.c for API argument errors).
assert(load(drasim.args.code, "=code"))()
