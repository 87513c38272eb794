/* Tracebacks without the REPL's own frames. */
#include "ckshims.h"
#include <string.h>

/* The traceback on top without the frames of the REPL's own chunk (ReplSession loads repl.lua
   as "=(repl)"): an error or warning of the user's code that the REPL called (a result's
   __tostring, a .send's handler, the app's onTrace under .trace on) names the user's frames only. */
void ckreplframes_drop(lua_State *L) {
    static const char frame[] = "\n\t(repl):";
    size_t n;
    const char *s = lua_tolstring(L, -1, &n), *end = s + n, *p = s;
    if (strstr(s, frame) == NULL) return;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    while (p < end) {
        const char *next = memchr(p + 1, '\n', (size_t)(end - p - 1));
        const char *stop = next ? next : end;
        int repl = (size_t)(stop - p) >= sizeof frame - 1 && memcmp(p, frame, sizeof frame - 1) == 0;
        if (!repl) luaL_addlstring(&b, p, (size_t)(stop - p));
        p = stop;
    }
    luaL_pushresult(&b);
    lua_remove(L, -2);
}
