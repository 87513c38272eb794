#include "ckshims.h"
#include "ckinternal.h"

/* __index of a runtime object: its methods come from a table without leaving C; any other
   key goes to the type's fields Swift function (upvalue 2, its id), as if Lua had called it. */
static int object_index(lua_State *L) {
    lua_pushvalue(L, 2);                 /* __index is called with (object, key) */
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    return cktrampoline_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(2)));
}

void ckindex_push(lua_State *L, int fields_id) {
    lua_pushinteger(L, fields_id);
    lua_pushcclosure(L, object_index, 2);
}
