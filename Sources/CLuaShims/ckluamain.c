/* What `ckrun` needs from C to behave as the stand-alone `lua` (lua.c) does: its way of calling
   chunks and reporting their errors, its version line, its default paths and its REPL. The
   command line itself is read in Swift (Sources/CKRunCommands/Run). */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdlib.h>
#include <string.h>

/* A string error gets a traceback; an object whose __tostring gives a string is shown as that
   string alone; anything else is named by its type, with a traceback. */
static int lua_style_handler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* lua.c's pmain as a chunk sees it: the C level it runs on ("[C]: in ?" ends its tracebacks),
   pmain's two arguments and the message handler below it (as many stack slots as lua5.4's: a
   recursion overflows at lua5.4's depth), and a protected call of its own, so a failing chunk's
   to-be-closed variables close with this level still below them, as in lua5.4. Given nresults,
   the chunk and its arguments; returns the results (or the error) and the status. */
static int run_main(lua_State *L) {
    int nresults = (int)lua_tointeger(L, 1);
    int nargs = lua_gettop(L) - 2;
    lua_pushnil(L);
    lua_replace(L, 1);                          /* nil chunk args: where pmain has argc */
    lua_pushnil(L);
    lua_pushcfunction(L, lua_style_handler);
    lua_rotate(L, 2, 2);                        /* nil nil handler chunk args */
    int status = ckpcall_at(L, nargs, nresults, 3);
    lua_pushinteger(L, status);
    return lua_gettop(L) - 3;
}

int ckluamain_docall(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;          /* the function */
    lua_pushcfunction(L, run_main);
    lua_insert(L, base);
    lua_pushinteger(L, nresults);
    lua_insert(L, base + 1);                    /* run_main nresults function args */
    int as_lua = ckwatchdog_sigint_watch(L, 1);
    int status = ckpcall_at(L, nargs + 2, LUA_MULTRET, 0);
    ckwatchdog_sigint_unwatch(as_lua);
    if (status != LUA_OK) return status;        /* run_main itself failed: its error on top */
    status = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return status;
}

void ckluamain_print_version(void) {
    fputs(LUA_COPYRIGHT "\n", stdout);
    fflush(stdout);
}

int ckluamain_default_paths(lua_State *L) {
    lua_State *fresh = luaL_newstate();
    if (fresh == NULL) return 0;
    lua_pushboolean(fresh, 1);
    lua_setfield(fresh, LUA_REGISTRYINDEX, "LUA_NOENV");
    luaL_requiref(fresh, LUA_LOADLIBNAME, luaopen_package, 0);
    lua_getfield(fresh, -1, "path");
    lua_pushstring(L, lua_tostring(fresh, -1));
    lua_getfield(fresh, -2, "cpath");
    lua_pushstring(L, lua_tostring(fresh, -1));
    lua_close(fresh);
    return 1;
}

/* `-l g=mod`: lua.c's dolibrary, each step that can run a script's metamethods (`_G` with
   __index or __newindex) under a protected call. The error, if any, is left on the stack. */
static int set_global(lua_State *L) {      /* value name */
    lua_pushvalue(L, 1);
    lua_setglobal(L, lua_tostring(L, 2));
    return 0;
}

int ckluamain_dolibrary(lua_State *L, const char *global, const char *module, size_t module_len) {
    int status = ckluamain_getglobal(L, "require");
    if (status != LUA_OK) return status;
    lua_pushlstring(L, module, module_len);
    status = ckluamain_docall(L, 1, 1);
    if (status != LUA_OK) return status;
    lua_pushcfunction(L, set_global);
    lua_insert(L, -2);
    lua_pushstring(L, global);
    return ckpcall_at(L, 2, 0, 0);   /* out of Swift mode: a __newindex allocates under the limit */
}

/* Pushes the global `name` as lua.c's lua_getglobal does, under a protected call; returns the
   status (the error on the stack if it failed). */
static int get_global(lua_State *L) {
    lua_getglobal(L, lua_tostring(L, 1));
    return 1;
}

int ckluamain_getglobal(lua_State *L, const char *name) {
    lua_pushcfunction(L, get_global);
    lua_pushstring(L, name);
    return ckpcall_at(L, 1, 1, 0);   /* out of Swift mode: an __index allocates under the limit */
}
