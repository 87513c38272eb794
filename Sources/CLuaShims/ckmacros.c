/* The Lua API macros Swift cannot import, as functions. */
#include "ckshims.h"
#include "ckinternal.h"

int ck_registryindex(void) { return LUA_REGISTRYINDEX; }
int ck_upvalueindex(int i) { return lua_upvalueindex(i); }
void ck_pop(lua_State *L, int n) { lua_pop(L, n); }
void ck_newtable(lua_State *L) { lua_newtable(L); }
void ck_remove(lua_State *L, int idx) { lua_remove(L, idx); }
void ck_insert(lua_State *L, int idx) { lua_insert(L, idx); }
void ck_replace(lua_State *L, int idx) { lua_replace(L, idx); }
const char *ck_tostring(lua_State *L, int idx, size_t *len) { return lua_tolstring(L, idx, len); }
int ck_isnoneornil(lua_State *L, int idx) { return lua_isnoneornil(L, idx); }
int ck_mainthreadindex(void) { return LUA_RIDX_MAINTHREAD; }
int ck_rawgetfield(lua_State *L, int idx, const char *k) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
    lua_pushstring(L, k);
    return lua_rawget(L, idx);
}

/* A literal's one address hits Lua's string cache: no hashing per component. */
int ck_rawgetkey(lua_State *L, int idx) { return ck_rawgetfield(L, idx, "key"); }

/* C's standard streams, which Swift 6 cannot name (they are mutable globals). */
FILE *ck_stdout(void) { return stdout; }
FILE *ck_stderr(void) { return stderr; }
