/* ckrun test's coroutine.create and coroutine.wrap: the state's own (ckthreads.c's wrap), and
   --coverage's line hook on the new thread, as luacov's wrapper puts it. No watchdog hook: the
   time limit reaches a coroutine when it runs (ckthreads.c follows it), and a hook on a thread
   makes the VM trace each of its instructions (coroutine-heavy tests ran at half speed). */
#include "ckshims.h"
#include "ckinternal.h"

/* The thread on top gets --coverage's line hook when it is on. */
static void hook_thread(lua_State *L) {
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
    ckinternal_extra_of(L)->is_test_runner = 1;
    return 0;
}
