/* Questions about the call stack (the test runner's, and where a limit struck), answered from lua_getinfo without the table
   debug.getinfo makes for each frame (a table of five or six fields: about 5,000 instructions a
   call, and a test asked several times). Levels count as debug.getinfo's do, seen from the Lua
   function that calls these: 1 is that function. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdio.h>
#include <string.h>

static int ends_with(const char *s, size_t n, const char *suffix) {
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* short_src matches the Lua pattern "luassert[/\\].*%.lua$". */
static int in_luassert(const char *src) {
    size_t n = strlen(src);
    if (!ends_with(src, n, ".lua")) return 0;
    for (const char *p = strstr(src, "luassert"); p != NULL; p = strstr(p + 1, "luassert")) {
        size_t at = (size_t)(p - src);
        if ((p[8] == '/' || p[8] == '\\') && at + 9 <= n - 4) return 1;
    }
    return 0;
}

/* user_frame(level [, skip_luassert]): the short_src, currentline, `what` ("main" or "Lua"),
   linedefined, lastlinedefined and source of the first frame at or above `level` that is Lua
   code outside the runner's chunks ("=(ckrun test…"), and, when asked, outside luassert's files
   (busted's getTrace: where a failure was raised); nothing when there is none. */
int ckframes_lua_user_frame(lua_State *L) {
    lua_Integer level = luaL_checkinteger(L, 1);
    int skip_luassert = lua_toboolean(L, 2);
    lua_Debug ar;
    for (; level >= 0 && lua_getstack(L, (int)level, &ar); level++) {
        lua_getinfo(L, "Sl", &ar);
        if (strcmp(ar.what, "C") == 0 || ckinternal_is_runner_source(ar.source)) continue;
        if (skip_luassert && in_luassert(ar.short_src)) continue;
        lua_pushstring(L, ar.short_src);
        lua_pushinteger(L, ar.currentline);
        lua_pushstring(L, ar.what);
        lua_pushinteger(L, ar.linedefined);
        lua_pushinteger(L, ar.lastlinedefined);
        lua_pushlstring(L, ar.source, ar.srclen);
        return 6;
    }
    return 0;
}

static const char *source_at(lua_State *L, lua_Integer level, lua_Debug *ar) {
    if (level < 0 || !lua_getstack(L, (int)level, ar)) return NULL;
    lua_getinfo(L, "S", ar);
    return ar->source;
}

/* luassert's util.errorlevel(level), the same loop: the level of the first frame above the
   caller whose source differs from the caller's. Sources are compared whole (a chunk loaded from
   a string has its text as its source); the caller's stays alive: its function is running. */
int ckframes_lua_errorlevel(lua_State *L) {
    lua_Integer level = luaL_optinteger(L, 1, 1) + 1;
    lua_Debug ar;
    /* The Lua original runs one frame deeper than this C function: its level n is our n - 1. */
    const char *file = source_at(L, level - 1, &ar);
    size_t file_len = file ? ar.srclen : 0;
    const char *source = file;
    while (source != NULL && ((ar.srclen == file_len && memcmp(file, source, file_len) == 0) ||
                              (ar.srclen == 12 && memcmp(source, "=(tail call)", 12) == 0))) {
        level++;
        source = source_at(L, level - 1, &ar);
    }
    if (level > 1) level--;
    lua_pushinteger(L, level);
    return 1;
}

/* "file:line: " of the innermost Lua function with a line on `thread` (C frames and ckrun's own
   chunks skipped: a message never names "(ckrun test: …)" or "(repl)"), into `where`; "" when
   there is none. Where a limit struck: [memoryLimit] (ckalloc.c), [timeout], [interrupted]. */
void ckframes_script_line(lua_State *thread, char *where, size_t size) {
    lua_Debug ar;
    where[0] = '\0';
    for (int level = 0; thread != NULL && lua_getstack(thread, level, &ar); level++) {
        if (lua_getinfo(thread, "Sl", &ar) && ar.currentline > 0 && !ckinternal_is_own_source(ar.source)) {
            snprintf(where, size, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
}

/* Whether the hook stopped in the test runner's own code (a C function: in its caller's). Past
   the deadline the runner's message handler and bookkeeping must run to report the [timeout]
   (the user code they call is stopped at its next instruction). */
int ckframes_in_runner(lua_State *L, lua_Debug *ar) {
    lua_Debug caller;
    if (!lua_getinfo(L, "S", ar)) return 0;
    if (strcmp(ar->what, "C") == 0) {
        if (!lua_getstack(L, 1, &caller) || !lua_getinfo(L, "S", &caller)) return 0;
        ar = &caller;
    }
    return ckinternal_is_runner_source(ar->source);
}

/* Whether the function the hook's event is in is ckrun's message handler (ckpcall_traceback). */
int ckframes_in_message_handler(lua_State *L, lua_Debug *ar) {
    if (!lua_getinfo(L, "f", ar)) return 0;
    int handler = lua_tocfunction(L, -1) == ckpcall_traceback;
    lua_pop(L, 1);
    return handler;
}
