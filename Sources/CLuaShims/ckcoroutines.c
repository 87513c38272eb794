/* ckrun test's coroutine.create and coroutine.wrap: lcorolib's, with the watchdog's count hook
   on the new thread, so a coroutine that loops past the time limit is stopped while the main
   thread runs without a hook. It replaces a hook the thread inherited: a hook set with
   debug.sethook does nothing in a coroutine it was not set for (ldblib keys its function by
   thread), and leaving it would let the loop run past the limit. wrap's closure is lcorolib's
   own (auxwrap, taken from a wrapped function), so its errors read exactly as lua5.4's. */
#include "ckshims.h"
#include "ckinternal.h"

static lua_CFunction auxwrap = NULL;

static lua_State *hooked_thread(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *NL = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, NL, 1);
    lua_sethook(NL, ckwatchdog_hook, LUA_MASKCOUNT, 1000);
    /* --coverage's line hook goes on every coroutine too, as luacov's wrapper puts it. */
    if (lua_getfield(L, LUA_REGISTRYINDEX, "ckrun.on_coroutine") == LUA_TFUNCTION) {
        lua_pushvalue(L, -2);
        lua_call(L, 1, 0);
    } else {
        lua_pop(L, 1);
    }
    return NL;
}

static int co_create(lua_State *L) {
    hooked_thread(L);
    return 1;
}

static int co_wrap(lua_State *L) {
    hooked_thread(L);
    lua_pushcclosure(L, auxwrap, 1);
    return 1;
}

/* hook_coroutines(coroutine): installs the two above in the table given. */
int ckcoroutines_lua_hook(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (auxwrap == NULL) {
        lua_getfield(L, 1, "wrap");
        lua_pushcfunction(L, co_create);   /* any function: only the closure's C function is kept */
        lua_call(L, 1, 1);
        auxwrap = lua_tocfunction(L, -1);
        lua_pop(L, 1);
        if (auxwrap == NULL) return luaL_error(L, "coroutine.wrap did not return a C closure");
    }
    lua_pushcfunction(L, co_create);
    lua_setfield(L, 1, "create");
    lua_pushcfunction(L, co_wrap);
    lua_setfield(L, 1, "wrap");
    ckinternal_extra_of(L)->hooks_coroutines = 1;
    return 0;
}
