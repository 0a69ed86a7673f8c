/*
 * lua_process.c -- the process layer of the drasim API (docs/LUA.md
 * "Processes"), modelled on SimPy: drasim.process(fn, ...) runs fn as a
 * coroutine that may block on drasim.sleep(d), drasim.wait(pod) (until the
 * pod ends: succeeded or deleted), drasim.any{...} and drasim.all{...}
 * (other processes, or pod names).
 *
 * It is written in Lua on top of the callback API (drasim.after,
 * drasim.on_finish) and loaded into every state from the text below; the C
 * side adds only what Lua cannot do in the sandbox: the traceback of a
 * failed coroutine (so an error names the user's line and the calls that
 * led there) and a hook that drasim.delete calls, so that waiting on a
 * deleted pod ends too. A process that blocks resumes from a timer
 * callback: it runs with that callback's budget and random stream.
 */
#include <lauxlib.h>

#include "workload/lua_internal.h"

static const char PROCESS_LUA[] =
    "local drasim, traceback, set_delete_hook = ...\n"
    "local after, on_finish, pod, duration = drasim.after, drasim.on_finish, drasim.pod, drasim.duration\n"
    "local create, resume, status, yield, running = coroutine.create, coroutine.resume, coroutine.status,"
    " coroutine.yield, coroutine.running\n"
    "local pack, unpack, type, error, pcall, tostring = table.pack, table.unpack, type, error, pcall, tostring\n"
    "local setmetatable, getmetatable = setmetatable, getmetatable\n"
    "local HANDLE = {__name = 'drasim.process'}\n"
    "HANDLE.__index = HANDLE\n"
    "local current = nil      -- the process running now\n"
    "local waiters = {}       -- pod name -> processes waiting for it to end\n"
    "local function step(h, ...)\n"
    "  local prev = current\n"
    "  current = h\n"
    "  local r = pack(resume(h.co, ...))\n"
    "  current = prev\n"
    "  if not r[1] then error(traceback(h.co, 'drasim.process: ' .. tostring(r[2])), 0) end\n"
    "  if status(h.co) == 'dead' then\n"
    "    h.done, h.results, h.result = true, pack(unpack(r, 2, r.n)), r[2]\n"
    "    local j = h.joiners\n"
    "    h.joiners = nil\n"
    "    if j then for i = 1, #j do j[i](h) end end\n"
    "  end\n"
    "end\n"
    "local function wake_pod(name, state)\n"
    "  local w = waiters[name]\n"
    "  if not w then return end\n"
    "  waiters[name] = nil\n"
    "  for i = 1, #w do local h = w[i]; after(0, function() step(h, state) end) end\n"
    "end\n"
    "set_delete_hook(function(name) wake_pod(name, 'deleted') end)\n"
    "local function inside(fname)\n"
    "  if not current or running() ~= current.co then\n"
    "    error(fname .. ': only inside a drasim.process function', 3)\n"
    "  end\n"
    "  return current\n"
    "end\n"
    "function drasim.process(fn, ...)\n"
    "  if type(fn) ~= 'function' then error('drasim.process: expected a function, found ' .. type(fn), 2) end\n"
    "  local args = pack(...)\n"
    "  local h = setmetatable({done = false}, HANDLE)\n"
    "  h.co = create(function() return fn(unpack(args, 1, args.n)) end)\n"
    "  after(0, function() step(h) end)\n"
    "  return h\n"
    "end\n"
    "function drasim.sleep(d)\n"
    "  local ok, ms = pcall(duration, d)\n"
    "  if not ok then error('drasim.sleep: ' .. tostring(ms):gsub('^drasim%.duration: ', ''), 2) end\n"
    "  local h = inside('drasim.sleep')\n"
    "  after(ms, function() step(h) end)\n"
    "  return yield()\n"
    "end\n"
    "function drasim.wait(name)\n"
    "  if type(name) ~= 'string' then error('drasim.wait: name: expected a pod name (string), found ' .. type(name), 2) end\n"
    "  local h = inside('drasim.wait')\n"
    "  local p = pod(name)\n"
    "  if p == nil then   -- never submitted, or deleted before it arrived\n"
    "    if not pcall(on_finish, name, function() end) then\n"
    "      error(\"drasim.wait: no pod named '\" .. name .. \"' was submitted\", 2)\n"
    "    end\n"
    "    return 'deleted'\n"
    "  end\n"
    "  if p.state == 'succeeded' or p.state == 'deleted' then return p.state end\n"
    "  local w = waiters[name]\n"
    "  if not w then\n"
    "    w = {}\n"
    "    waiters[name] = w\n"
    "    on_finish(name, function() wake_pod(name, 'succeeded') end)\n"
    "  end\n"
    "  w[#w + 1] = h\n"
    "  return yield()\n"
    "end\n"
    "local function handles(list, fname)\n"
    "  if type(list) ~= 'table' then error(fname .. ': expected a list of processes or pod names, found ' .. type(list), 3) end\n"
    "  local hs = {}\n"
    "  for i = 1, #list do\n"
    "    local x = list[i]\n"
    "    if type(x) == 'string' then\n"
    "      if pod(x) == nil and not pcall(on_finish, x, function() end) then\n"
    "        error(fname .. \": item \" .. i .. \": no pod named '\" .. x .. \"' was submitted\", 3)\n"
    "      end\n"
    "      hs[i] = drasim.process(drasim.wait, x)\n"
    "    elseif getmetatable(x) == HANDLE then hs[i] = x\n"
    "    else error(fname .. ': item ' .. i .. ': expected a process (drasim.process) or a pod name, found ' .. type(x), 3) end\n"
    "  end\n"
    "  if #hs == 0 then error(fname .. ': the list is empty', 3) end\n"
    "  return hs\n"
    "end\n"
    "local function join(x, fn)\n"
    "  local j = x.joiners or {}\n"
    "  x.joiners = j\n"
    "  j[#j + 1] = fn\n"
    "end\n"
    "function drasim.all(list)\n"
    "  local h = inside('drasim.all')\n"
    "  local hs = handles(list, 'drasim.all')\n"
    "  local left = 0\n"
    "  for i = 1, #hs do if not hs[i].done then left = left + 1 end end\n"
    "  if left > 0 then\n"
    "    local function one() left = left - 1; if left == 0 then after(0, function() step(h) end) end end\n"
    "    for i = 1, #hs do if not hs[i].done then join(hs[i], one) end end\n"
    "    yield()\n"
    "  end\n"
    "  local res = {}\n"
    "  for i = 1, #hs do res[i] = hs[i].result end\n"
    "  return res\n"
    "end\n"
    "function drasim.any(list)\n"
    "  local h = inside('drasim.any')\n"
    "  local hs = handles(list, 'drasim.any')\n"
    "  for i = 1, #hs do if hs[i].done then return i, hs[i].result end end\n"
    "  local fired = false\n"
    "  for i = 1, #hs do\n"
    "    join(hs[i], function() if not fired then fired = true; after(0, function() step(h, i) end) end end)\n"
    "  end\n"
    "  local i = yield()\n"
    "  return i, hs[i].result\n"
    "end\n";

/* traceback(co, msg): msg and the traceback of the coroutine co. */
static int co_traceback(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    const char *msg = luaL_optstring(L, 2, "");
    if (!co) return luaL_error(L, "traceback: expected a coroutine");
    luaL_traceback(L, co, msg, 0);
    return 1;
}

/* set_delete_hook(fn): drasim.delete calls fn(name) after deleting a pod. */
static int set_delete_hook(lua_State *L) {
    luaw *w = luaw_get(L);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_pushvalue(L, 1);
    w->delete_hook_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

int luaw_open_process(lua_State *L) {
    if (luaL_loadbuffer(L, PROCESS_LUA, sizeof PROCESS_LUA - 1, "=drasim.process") != LUA_OK) return lua_error(L);
    lua_getglobal(L, "drasim");
    lua_pushcfunction(L, co_traceback);
    lua_pushcfunction(L, set_delete_hook);
    lua_call(L, 3, 0);
    return 0;
}

void luaw_deleted_hook(lua_State *L, luaw *w, const char *name) {
    if (!w->delete_hook_ref) return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->delete_hook_ref);
    lua_pushstring(L, name);
    lua_call(L, 1, 0);   /* inside the calling drasim.delete: errors propagate to the script */
}
