/* Where in the script a C function was called from: the lowest layer, so that every file that
   names a script's line for a message raised in C (the trampoline, the C stack's [stackLimit],
   coroutines, props) asks one function. */
#include "ckshims.h"
#include "ckinternal.h"

/* luaL_where of the innermost Lua function (level 1 or above): a metamethod that the table
   library calls (`table.insert(state, x)`, `table.sort(props)`), or a C stack overflow that
   struck in a C function, has C at level 1, and the message must still name the script's line;
   ckrun's own chunks are no script's line (ckinternal_is_own_source). */
void ckwhere_script(lua_State *L) {
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && !ckinternal_is_own_source(ar.source)) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}
