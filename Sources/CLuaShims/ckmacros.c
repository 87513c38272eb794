/* The Lua API macros Swift cannot import, as functions. */
#include "ckshims.h"
#include "ckinternal.h"
#include <string.h>

int ckmacros_registryindex(void) { return LUA_REGISTRYINDEX; }
int ckmacros_upvalueindex(int i) { return lua_upvalueindex(i); }
void ckmacros_pop(lua_State *L, int n) { lua_pop(L, n); }
void ckmacros_newtable(lua_State *L) { lua_newtable(L); }
void ckmacros_remove(lua_State *L, int idx) { lua_remove(L, idx); }
void ckmacros_insert(lua_State *L, int idx) { lua_insert(L, idx); }
void ckmacros_replace(lua_State *L, int idx) { lua_replace(L, idx); }
const char *ckmacros_tostring(lua_State *L, int idx, size_t *len) { return lua_tolstring(L, idx, len); }
/* Whether the value at `idx` is a string of exactly these bytes (memcmp: Swift's byte loop cost ~150). */
int ckmacros_string_equals(lua_State *L, int idx, const void *bytes, size_t len) {
    size_t n;
    if (lua_type(L, idx) != LUA_TSTRING) return 0;
    const char *s = lua_tolstring(L, idx, &n);
    return n == len && memcmp(s, bytes, len) == 0;
}
int ckmacros_isnoneornil(lua_State *L, int idx) { return lua_isnoneornil(L, idx); }
int ckmacros_mainthreadindex(void) { return LUA_RIDX_MAINTHREAD; }
int ckmacros_rawgetfield(lua_State *L, int idx, const char *k) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
    lua_pushstring(L, k);
    return lua_rawget(L, idx);
}

/* A literal's one address hits Lua's string cache: no hashing per component. */
int ckmacros_rawgetkey(lua_State *L, int idx) { return ckmacros_rawgetfield(L, idx, "key"); }

/* C's standard streams, which Swift 6 cannot name (they are mutable globals). */
FILE *ckmacros_stdout(void) { return stdout; }
FILE *ckmacros_stderr(void) { return stderr; }
