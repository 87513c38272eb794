/* C modules a state loaded stay loaded after it closes. Lua's package library unloads them as
   its state closes (dlclose), so each `ckrun test` file, in a fresh state, loaded, relocated
   and initialised every C module again: lfs.so, which every file's state requires, cost about
   0.5M instructions a file. busted keeps them for its whole run, as one process does here. */
#include "ckshims.h"
#include "ckinternal.h"
#include <dlfcn.h>
#include <pthread.h>

#define CKCLIBS_MAX 256

static void *pinned[CKCLIBS_MAX];
static int pinned_count = 0;
static pthread_mutex_t pinned_lock = PTHREAD_MUTEX_INITIALIZER;

/* Keeps the reference `handle` holds unless one is kept already (then drops it). */
static void ckclibs_keep(void *handle) {
    pthread_mutex_lock(&pinned_lock);
    int kept = 0;
    for (int i = 0; i < pinned_count && !kept; i++) kept = pinned[i] == handle;
    if (!kept && pinned_count < CKCLIBS_MAX) {
        pinned[pinned_count++] = handle;
        handle = NULL;
    }
    pthread_mutex_unlock(&pinned_lock);
    if (handle) dlclose(handle);
}

/* The registry's _CLIBS table (loadlib.c) maps each loaded library's path to its handle. A
   second reference is taken with RTLD_NOLOAD: nothing is loaded that the state did not load. */
static int ckclibs_pin_k(lua_State *L) {
    if (lua_getfield(L, LUA_REGISTRYINDEX, "_CLIBS") != LUA_TTABLE) return 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            void *handle = dlopen(lua_tostring(L, -2), RTLD_NOW | RTLD_NOLOAD);
            if (handle) ckclibs_keep(handle);
        }
        lua_pop(L, 1);
    }
    return 0;
}

void ckclibs_pin(lua_State *L) {
    /* Closing: no hook of the script's may run here, and an error (no memory) only skips it. */
    lua_sethook(L, NULL, 0, 0);
    int top = lua_gettop(L);
    lua_pushcfunction(L, ckclibs_pin_k);
    ckpcall_at(L, 0, 0, 0);
    lua_settop(L, top);
}
