/* Stack operations for Swift that cannot raise: raw access only (no metamethod runs), a table is
   checked to be one before it is indexed, and keys carry their length (a NUL byte is a byte).
   Allocation cannot fail either: Swift runs in Swift mode (see ckalloc.c), where an allocation
   past the limit is recorded and raised once Lua runs again. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdio.h>

int ckstack_rawget_key(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_pushnil(L);
        return LUA_TNIL;
    }
    return lua_rawget(L, idx);
}

int ckstack_rawget_named(lua_State *L, int idx, const char *k, size_t len) {
    idx = lua_absindex(L, idx);
    lua_pushlstring(L, k, len);
    return ckstack_rawget_key(L, idx);
}

int ckstack_rawset_named(lua_State *L, int idx, const char *k, size_t len) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushlstring(L, k, len);
    lua_insert(L, -2);
    lua_rawset(L, idx);
    return 1;
}

int ckstack_rawset_key(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pop(L, 2);
        return 0;
    }
    lua_rawset(L, idx);
    return 1;
}

int ckstack_rawgeti_checked(lua_State *L, int idx, lua_Integer i) {
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
    return lua_rawgeti(L, idx, i);
}

int ckstack_rawseti_checked(lua_State *L, int idx, lua_Integer i) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_rawseti(L, idx, i);
    return 1;
}

/* _G[name] = value on top (popped), raw: a strict _G's __newindex does not run. */
void ckstack_setglobal_raw(lua_State *L, const char *name, size_t len) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_insert(L, -2);
    ckstack_rawset_named(L, -2, name, len);
    lua_pop(L, 1);
}

int ckstack_getglobal_raw(lua_State *L, const char *name, size_t len) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    int t = ckstack_rawget_named(L, -1, name, len);
    lua_remove(L, -2);
    return t;
}

int ckstack_checkstack(lua_State *L, int n) { return n <= 0 || lua_checkstack(L, n); }

/* The one length of a script's list that Swift and C use: t[1], t[2], ... up to the first nil,
   as ipairs walks it. `#t` (lua_rawlen) is a border, not a size: a table of 41 entries can have a
   border of 2^40, so no border sizes a loop, an array or a stack here. This count never exceeds
   the table's real entries. Not a table: 0. */
lua_Integer ckstack_list_length(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    idx = lua_absindex(L, idx);
    lua_Integer n = 0;
    while (lua_rawgeti(L, idx, n + 1) != LUA_TNIL) {
        lua_pop(L, 1);
        n++;
    }
    lua_pop(L, 1);
    return n;
}

/* What tostring says of a value that is no string, as if no metatable had a __tostring or __name
   (no script code runs): a number's text, true/false, nil, or "type: address". */
size_t ckstack_raw_text(lua_State *L, int idx, char *buf, size_t size) {
    int n;
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) n = snprintf(buf, size, LUA_INTEGER_FMT, (LUAI_UACINT)lua_tointeger(L, idx));
        else n = snprintf(buf, size, LUA_NUMBER_FMT, (LUAI_UACNUMBER)lua_tonumber(L, idx));
        break;
    case LUA_TBOOLEAN: n = snprintf(buf, size, "%s", lua_toboolean(L, idx) ? "true" : "false"); break;
    case LUA_TNIL: n = snprintf(buf, size, "nil"); break;
    default: n = snprintf(buf, size, "%s: %p", luaL_typename(L, idx), lua_topointer(L, idx)); break;
    }
    return n < 0 ? 0 : ((size_t)n < size ? (size_t)n : size - 1);
}
