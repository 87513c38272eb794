/* Guards over the standard library for what Lua 5.4.4 itself gets wrong or leaves uncatalogued:
   - `pcall`/`xpcall` give out-of-memory as `[memoryLimit] …` (Lua's own is a bare "not enough
     memory", which names no limit and no fix); otherwise they are Lua's, yields included.
   - `debug.setupvalue` refuses C functions (a changed C upvalue crashed the process).
   - the coroutine library and `debug.sethook`: ckthreads.c. */
#include "ckshims.h"
#include "ckinternal.h"
#include <string.h>

static int finish_pcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        if (ckalloc_is_limit_error(L, status)) ckalloc_catalogue_error(L);
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int guarded_pcall(lua_State *L) {
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    return finish_pcall(L, lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall), 0);
}

static int guarded_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);                 /* f handler true f args... */
    return finish_pcall(L, lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall), 2);
}

/* debug.setupvalue on a C function: its upvalues are C's own state (a ckrun function's dispatch
   slot, a class's call table, a gmatch iterator's position), read unchecked; a changed one
   crashed the process (SIGILL, SIGSEGV). A Lua function's upvalues are the script's to set. */
static int guarded_setupvalue(lua_State *L) {
    if (lua_iscfunction(L, 1))
        return cktrampoline_raise_catalogued(L, "badArgument", 1,
            "debug.setupvalue: argument #1 is a C function, whose upvalues hold its own C state; ckrun does not let a "
            "script change them (a wrong one crashes the process); set a Lua function's upvalues");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static void replace(lua_State *L, int table, const char *name, lua_CFunction fn, int wraps_original) {
    if (wraps_original) {
        lua_pushstring(L, name);
        lua_rawget(L, table);
        lua_pushcclosure(L, fn, 1);
    } else {
        lua_pushcfunction(L, fn);
    }
    lua_pushstring(L, name);
    lua_insert(L, -2);
    lua_rawset(L, table);
}

/* Replaces `name` in `table` by `fn` wrapping it, if it is a function. */
static void replace_function(lua_State *L, int table, const char *name, lua_CFunction fn) {
    lua_pushstring(L, name);
    int type = lua_rawget(L, table);
    lua_pop(L, 1);
    if (type == LUA_TFUNCTION) replace(L, table, name, fn, 1);
}

static int install(lua_State *L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    replace(L, 1, "pcall", guarded_pcall, 0);
    replace(L, 1, "xpcall", guarded_xpcall, 0);
    cktimeout_set_xpcall(guarded_xpcall);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, "coroutine") == LUA_TTABLE) ckthreads_install(L, lua_gettop(L));
    lua_settop(L, 2);
    if (lua_getfield(L, -1, "debug") == LUA_TTABLE) {
        replace_function(L, lua_gettop(L), "setupvalue", guarded_setupvalue);
        ckthreads_install_sethook(L, lua_gettop(L));
    }
    return 0;
}

int ckguards_install(lua_State *L) {
    lua_pushcfunction(L, install);
    return lua_pcall(L, 0, 0, 0);
}
