/* The [timeout] the watchdog's hook raises once the deadline passed, and Ctrl-C's error raised
   again while its turn runs: where it struck, and a way past the script's xpcall handlers,
   which Lua runs with hooks off for an error a hook raised. */
#include "ckshims.h"
#include "ckinternal.h"
#include <string.h>

/* The xpcall scripts call (ckguards.c): its frame's second slot holds the message handler. */
static lua_CFunction guarded_xpcall = NULL;

void cktimeout_set_xpcall(lua_CFunction xpcall) { guarded_xpcall = xpcall; }

/* Where the time limit struck, once per expiry: the innermost Lua function's line. The first
   strike names the loop; past it every instruction raises again, often in a C function
   (`coroutine.resume` returning the coroutine's [timeout], `table.sort`), which has no line. */
static const char *cktimeout_where(lua_State *L, ck_extra *e) {
    if (e->timeout_struck[0] == '\0') ckframes_script_line(L, e->timeout_struck, sizeof e->timeout_struck);
    return e->timeout_struck;
}

static int cktimeout_pass_message(lua_State *L) {
    lua_settop(L, 1);
    return 1;
}

/* An error raised from a hook runs the message handler with hooks off (Lua's allowhook), so a
   script's xpcall handler that loops could never be stopped, and the watchdog's second tick
   ended the whole process. Past the deadline every raise is this [timeout] (after Ctrl-C every
   raise but the first is its error again): the xpcalls under way (the innermost 100 frames)
   get, instead of a Lua handler of the script's, one that passes the message on unchanged. The test runner's own handlers stay: they record the traceback. */
static void cktimeout_pass_through_handlers(lua_State *L) {
    lua_Debug frame, handler;
    for (int level = 0; level < 100 && lua_getstack(L, level, &frame); level++) {
        if (!lua_getinfo(L, "f", &frame)) return;
        int xpcall = guarded_xpcall != NULL && lua_tocfunction(L, -1) == guarded_xpcall;
        lua_pop(L, 1);
        if (!xpcall || lua_getlocal(L, &frame, 2) == NULL) continue;   /* the handler's slot */
        int scripts = lua_type(L, -1) == LUA_TFUNCTION && !lua_iscfunction(L, -1);
        if (scripts) {
            lua_pushvalue(L, -1);
            scripts = lua_getinfo(L, ">S", &handler) && !ckinternal_is_runner_source(handler.source);
        }
        lua_pop(L, 1);
        if (scripts) {
            lua_pushcfunction(L, cktimeout_pass_message);
            if (lua_setlocal(L, &frame, 2) == NULL) lua_pop(L, 1);
        }
    }
}

int cktimeout_raise(lua_State *L, const char *detail) {
    ck_extra *e = ckinternal_extra_of(L);
    cktimeout_pass_through_handlers(L);
    lua_pushfstring(L, "[timeout] %s%s", cktimeout_where(L, e), detail);
    return lua_error(L);
}

int cktimeout_raise_again(lua_State *L) {
    cktimeout_pass_through_handlers(L);
    return lua_error(L);
}
