/*
 * lua_csv_rows.c -- drasim.csv_rows(path, {types = {...}}): a CSV file
 * streamed row by row (util/csv_stream.c) with declared column types, and
 * drasim.parse_time(iso8601). No guessing: a column without a declared type
 * stays a string ("007" stays "007"); a declared type that does not parse is
 * an error naming FILE:LINE and the column (docs/LUA.md "Data").
 */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/scenario.h"
#include "util/csv_stream.h"
#include "workload/lua_internal.h"

enum { T_STRING, T_NUMBER, T_INTEGER, T_BOOLEAN, T_TIME, T_DURATION };
static const char *const TYPE_NAMES[] = {"string", "number", "integer", "boolean", "time", "duration", NULL};

/* The iterator's state (a userdata; its __gc closes the file when a loop is left early). */
typedef struct rows_state {
    csv_stream *s;
    unsigned char *types;      /* per column */
    long charged;              /* bytes charged to the memory limit */
} rows_state;

static void rows_close(lua_State *L, rows_state *st) {
    if (st->s) csv_stream_close(st->s);
    st->s = NULL;
    free(st->types);
    st->types = NULL;
    if (st->charged) luaw_charge(L, luaw_get(L), -st->charged);
    st->charged = 0;
}

static int rows_gc(lua_State *L) {
    rows_close(L, lua_touserdata(L, 1));
    return 0;
}

/* ---- ISO 8601 ---- */

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; H. Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static bool digits(const char **p, int n, int *out) {
    int v = 0;
    for (int i = 0; i < n; i++) {
        if ((*p)[i] < '0' || (*p)[i] > '9') return false;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *out = v;
    return true;
}

/* Seconds since 1970-01-01T00:00:00Z of an ISO 8601 date-time:
 * YYYY-MM-DD[(T| )hh:mm[:ss[.fraction]]][Z|+hh:mm|-hh:mm|+hhmm|-hhmm]; no zone = UTC. */
static bool parse_iso8601(const char *s, double *out) {
    int y, mo, d, h = 0, mi = 0, sec = 0;
    double frac = 0;
    const char *p = s;
    if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' || !digits(&p, 2, &d)) return false;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1]) return false;
    if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) return false;
    int64_t offset = 0;
    if (*p == 'T' || *p == 't' || *p == ' ') {
        p++;
        if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi)) return false;
        if (*p == ':') {
            p++;
            if (!digits(&p, 2, &sec)) return false;
            if (*p == '.' || *p == ',') {
                p++;
                double scale = 0.1;
                if (*p < '0' || *p > '9') return false;
                for (; *p >= '0' && *p <= '9'; p++, scale /= 10) frac += (*p - '0') * scale;
            }
        }
        if (h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi || sec || frac > 0))) return false;
        if (*p == 'Z' || *p == 'z') p++;
        else if (*p == '+' || *p == '-') {
            int sign = *p++ == '-' ? -1 : 1, oh, om = 0;
            if (!digits(&p, 2, &oh)) return false;
            if (*p == ':') p++;
            if (*p && !digits(&p, 2, &om)) return false;
            if (oh > 23 || om > 59) return false;
            offset = sign * (oh * 3600 + om * 60);
        }
    }
    if (*p) return false;
    *out = (double)(days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset) + frac;
    return true;
}

static int api_parse_time(lua_State *L) {
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "drasim.parse_time: expected an ISO 8601 time string, found %s", luaL_typename(L, 1));
    double t;
    if (!parse_iso8601(lua_tostring(L, 1), &t))
        return luaL_error(L, "drasim.parse_time: '%s' is not an ISO 8601 time such as 2024-05-01T13:45:00Z",
                          lua_tostring(L, 1));
    lua_pushnumber(L, t);
    return 1;
}

/* ---- rows ---- */

/* Push cell text s of column c as its declared type; false when it does not parse. */
static bool push_typed(lua_State *L, int type, const char *s) {
    switch (type) {
    case T_STRING: lua_pushstring(L, s); return true;
    case T_NUMBER:
    case T_INTEGER: {
        if (!*s) {
            lua_pushnil(L);
            return true;
        }
        if (!lua_stringtonumber(L, s)) return false;
        if (type == T_INTEGER && !lua_isinteger(L, -1)) {
            lua_Integer i;
            double v = lua_tonumber(L, -1);
            lua_pop(L, 1);
            if (floor(v) != v || !lua_numbertointeger(v, &i)) return false;
            lua_pushinteger(L, i);
        }
        return true;
    }
    case T_BOOLEAN:
        if (!*s) lua_pushnil(L);
        else if (!strcmp(s, "true") || !strcmp(s, "1")) lua_pushboolean(L, 1);
        else if (!strcmp(s, "false") || !strcmp(s, "0")) lua_pushboolean(L, 0);
        else return false;
        return true;
    case T_TIME: {
        double t;
        if (!*s) {
            lua_pushnil(L);
            return true;
        }
        if (!parse_iso8601(s, &t)) return false;
        lua_pushnumber(L, t);
        return true;
    }
    case T_DURATION: {
        sim_time ms;
        if (!*s) {
            lua_pushnil(L);
            return true;
        }
        if (lua_stringtonumber(L, s)) {
            double v = lua_tonumber(L, -1);
            lua_pop(L, 1);
            if (!(v >= 0)) return false;
            lua_pushnumber(L, v);
            return true;
        }
        if (parse_duration_text(s, &ms)) return false;
        lua_pushnumber(L, (double)ms / 1000.0);
        return true;
    }
    }
    return false;
}

static int rows_next(lua_State *L) {
    rows_state *st = lua_touserdata(L, lua_upvalueindex(1));
    if (!st->s) return 0;   /* ended (or closed) */
    strbuf err = {0};
    int r = csv_stream_next(st->s, &err);
    if (r <= 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", sb_str(&err));
        sb_free(&err);
        rows_close(L, st);
        if (r < 0) return luaL_error(L, "drasim.csv_rows: %s", msg);
        return 0;
    }
    sb_free(&err);
    csv_stream *s = st->s;
    luaw_charge_work(L, (int64_t)s->ncols + (int64_t)(s->row.len / 32) + 1);
    lua_createtable(L, 0, (int)s->ncols);
    for (size_t c = 0; c < s->ncols; c++) {
        const char *cell = csv_stream_cell(s, c);
        if (!push_typed(L, st->types[c], cell)) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s:%d: column %s: expected %s %s, found '%.64s'", s->name, s->row_line,
                     s->header[c], st->types[c] == T_INTEGER ? "an" : "a", TYPE_NAMES[st->types[c]], cell);
            return luaL_error(L, "drasim.csv_rows: %s", msg);
        }
        lua_setfield(L, -2, s->header[c]);
    }
    return 1;
}

/* csv_rows(path [, {types = {column = type}}]): an iterator over the rows. */
static int api_csv_rows(lua_State *L) {
    luaw *w = luaw_get(L);
    const char *rel = luaL_checkstring(L, 1);
    if (!*rel || rel[0] == '/' || strstr(rel, ".."))
        return luaL_error(L, "drasim.csv_rows: '%s': expected a path relative to the script's directory, without '..'", rel);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            lua_pop(L, 1);
            if (lua_type(L, -1) != LUA_TSTRING || strcmp(lua_tostring(L, -1), "types"))
                return luaL_error(L, "drasim.csv_rows: unknown option '%s' (expected: types)",
                                  lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
        }
    }
    lua_settop(L, 2);
    rows_state *st = lua_newuserdatauv(L, sizeof *st, 0);
    memset(st, 0, sizeof *st);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, rows_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    int ud = lua_gettop(L);
    luaw_charge(L, w, (long)sizeof(csv_stream));
    st->charged = (long)sizeof(csv_stream);
    const char *path = lua_pushfstring(L, "%s%s%s", w->script_dir, *w->script_dir ? "/" : "", rel);
    strbuf err = {0};
    int rc = csv_stream_open(path, &st->s, &err);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", sb_str(&err));
    sb_free(&err);
    lua_pop(L, 1);
    if (rc) return luaL_error(L, "drasim.csv_rows: %s", msg);
    csv_stream *s = st->s;
    st->types = xcalloc(s->ncols ? s->ncols : 1, 1);
    if (lua_istable(L, 2) && lua_getfield(L, 2, "types") != LUA_TNIL) {
        if (!lua_istable(L, -1)) return luaL_error(L, "drasim.csv_rows: types: expected a table {column = type}");
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            if (lua_type(L, -2) != LUA_TSTRING) return luaL_error(L, "drasim.csv_rows: types: column names must be strings");
            const char *col = lua_tostring(L, -2);
            size_t c;
            for (c = 0; c < s->ncols && strcmp(s->header[c], col); c++) {}
            if (c == s->ncols) return luaL_error(L, "drasim.csv_rows: types: %s has no column '%s'", s->name, col);
            int t = -1;
            if (lua_type(L, -1) == LUA_TSTRING)
                for (int k = 0; TYPE_NAMES[k]; k++)
                    if (!strcmp(lua_tostring(L, -1), TYPE_NAMES[k])) t = k;
            if (t < 0)
                return luaL_error(L, "drasim.csv_rows: types: %s: expected string, number, integer, boolean, time or "
                                     "duration", col);
            st->types[c] = (unsigned char)t;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pushvalue(L, ud);
    lua_pushcclosure(L, rows_next, 1);
    lua_createtable(L, (int)s->ncols, 0);   /* second result: the header */
    for (size_t c = 0; c < s->ncols; c++) {
        lua_pushstring(L, s->header[c]);
        lua_rawseti(L, -2, (lua_Integer)c + 1);
    }
    return 2;
}

void luaw_open_csv_rows(lua_State *L) {
    lua_pushcfunction(L, api_csv_rows);
    lua_setfield(L, -2, "csv_rows");
    lua_pushcfunction(L, api_parse_time);
    lua_setfield(L, -2, "parse_time");
}
