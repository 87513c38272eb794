/* Ctrl-C's error: made once, where it first struck, and raised again unchanged while its turn
   runs (ckwatchdog.c), past the script's xpcall handlers as the time limit's is (cktimeout.c). */
#include "ckshims.h"
#include "ckinternal.h"
#include <string.h>

/* Pushes the error and keeps it: lua.c's "interrupted!" after luaL_error's place (`as_lua`), or
   the catalogued one naming the script's line, never ckrun test's chunks, then `cause`. */
void ckinterruption_make(lua_State *L, int as_lua, const char *cause) {
    ck_extra *e = ckinternal_extra_of(L);
    if (as_lua) {
        luaL_where(L, 1);
        lua_pushliteral(L, "interrupted!");
        lua_concat(L, 2);
    } else {
        char where[512];
        ckframes_script_line(L, where, sizeof where);
        lua_pushfstring(L, "[interrupted] %s%s", where, cause);
    }
    size_t n;
    const char *message = lua_tolstring(L, -1, &n);
    if (n >= sizeof e->interrupt_message) n = sizeof e->interrupt_message - 1;
    memcpy(e->interrupt_message, message, n);
    e->interrupt_message[n] = '\0';
}

int ckinterruption_raise_again(lua_State *L) {
    lua_pushstring(L, ckinternal_extra_of(L)->interrupt_message);
    return cktimeout_raise_again(L);
}

/* The piece of code Ctrl-C stopped ended (ckrun test's next piece starts: ckrunner_lua_turn; a
   turn of its own inside another ended: Engine.ownTurn), and its interruption with it; one that
   came and was not raised yet stays. */
void ckinterruption_end_raised(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    if (e->interrupted == CK_INTERRUPT_RAISED) e->interrupted = CK_INTERRUPT_NONE;
}
