/* ckrun test's coroutine.create and coroutine.wrap: the state's own (ckthreads.c's wrap), with the
   watchdog's count hook on the new thread, so a coroutine that loops past the time limit is
   stopped while the main thread runs without a hook. It replaces a hook the thread inherited: a
   hook set with debug.sethook does nothing in a coroutine it was not set for (ldblib keys its
   function by thread), and leaving it would let the loop run past the limit. */
#include "ckshims.h"
#include "ckinternal.h"

/* The thread on top gets the hook, and --coverage's line hook, as luacov's wrapper puts it. */
static void hook_thread(lua_State *L) {
    lua_sethook(lua_tothread(L, -1), ckwatchdog_hook, LUA_MASKCOUNT, 1000);
    if (lua_getfield(L, LUA_REGISTRYINDEX, "ckrun.on_coroutine") == LUA_TFUNCTION) {
        lua_pushvalue(L, -2);
        lua_call(L, 1, 0);
    } else {
        lua_pop(L, 1);
    }
}

/* Calls the function the closure wraps (upvalue 1) on the function given. */
static void make(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
}

static int co_create(lua_State *L) {
    make(L);
    hook_thread(L);
    return 1;
}

/* The wrapped function's first upvalue is its coroutine (ckthreads.c). */
static int co_wrap(lua_State *L) {
    make(L);
    if (lua_getupvalue(L, 1, 1) != NULL && lua_isthread(L, -1)) hook_thread(L);
    lua_settop(L, 1);
    return 1;
}

/* hook_coroutines(coroutine): wraps the table's create and wrap as above. */
int ckcoroutines_lua_hook(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "create");
    lua_pushcclosure(L, co_create, 1);
    lua_setfield(L, 1, "create");
    lua_getfield(L, 1, "wrap");
    lua_pushcclosure(L, co_wrap, 1);
    lua_setfield(L, 1, "wrap");
    ckinternal_extra_of(L)->hooks_coroutines = 1;
    return 0;
}
