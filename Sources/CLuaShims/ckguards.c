/* Guards over the standard library for what Lua 5.4.4 itself gets wrong or leaves uncatalogued:
   - `pcall`/`xpcall`/`coroutine.resume` give out-of-memory as `[memoryLimit] …` (Lua's own is a bare "not enough
     memory", which names no limit and no fix); otherwise they are Lua's, yields included.
   - `debug.setupvalue` refuses C functions (a changed C upvalue crashed the process).
   - `coroutine.close` nested through `__close` handlers overflows the C stack in 5.4.4 (fixed in
     5.4.5): past CK_CLOSE_DEPTH nested closes it raises `[stackLimit]` instead. */
#include "ckshims.h"
#include "ckinternal.h"
#include <string.h>

#define CK_CLOSE_DEPTH 100

static int is_memory_error(lua_State *L, int status) {
    if (status == LUA_ERRMEM) return 1;
    /* A coroutine's memory error reaches here as a plain error carrying Lua's fixed message. */
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    return msg != NULL && ckstate_memory_of(L)->limit != 0 && strcmp(msg, "not enough memory") == 0;
}

/* Replaces the error on top by the catalogued message. Allocates in Swift mode (it cannot fail),
   and leaves no overshoot behind: the script goes on below its limit or fails its next allocation. */
static void catalogue_memory_error(lua_State *L) {
    ck_memory *m = ckstate_memory_of(L);
    int exceeded = m->exceeded;
    m->in_swift++;
    lua_pop(L, 1);
    lua_pushstring(L, ckalloc_limit_message(L, L));
    m->in_swift--;
    m->exceeded = exceeded;
}

static int finish_pcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        if (is_memory_error(L, status)) catalogue_memory_error(L);
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

static int guarded_close(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    if (e->close_depth >= CK_CLOSE_DEPTH)
        return cktrampoline_raise_catalogued(L, "stackLimit", 1,
            "coroutine.close nested more than 100 deep (from __close handlers); close coroutines one after another");
    e->close_depth++;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    e->close_depth--;
    if (status != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

/* coroutine.resume: a coroutine that ran out of memory reports it as `[memoryLimit] …` too. */
static int guarded_resume(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    if (!lua_toboolean(L, 1) && lua_gettop(L) == 2 && is_memory_error(L, LUA_ERRRUN)) catalogue_memory_error(L);
    return lua_gettop(L);
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

static int install(lua_State *L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    replace(L, 1, "pcall", guarded_pcall, 0);
    replace(L, 1, "xpcall", guarded_xpcall, 0);
    cktimeout_set_xpcall(guarded_xpcall);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, "coroutine") == LUA_TTABLE) {
        replace(L, lua_gettop(L), "close", guarded_close, 1);
        replace(L, lua_gettop(L), "resume", guarded_resume, 1);
    }
    lua_settop(L, 2);
    if (lua_getfield(L, -1, "debug") == LUA_TTABLE) {
        lua_pushliteral(L, "setupvalue");
        if (lua_rawget(L, -2) == LUA_TFUNCTION) {
            lua_pop(L, 1);
            replace(L, lua_gettop(L), "setupvalue", guarded_setupvalue, 1);
        } else {
            lua_pop(L, 1);
        }
    }
    return 0;
}

int ckguards_install(lua_State *L) {
    lua_pushcfunction(L, install);
    return lua_pcall(L, 0, 0, 0);
}
