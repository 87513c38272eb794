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

/* __newindex of a table one of whose keys (upvalue 1) keeps its value (upvalue 2): assigning that
   same value again changes nothing (busted's `mock(ck)` does), any other value goes to the Swift
   function (upvalue 3, its id) that refuses it; other keys are stored as a plain table stores them. */
static int keeping_newindex(lua_State *L) {
    lua_settop(L, 3);
    if (!lua_rawequal(L, 2, lua_upvalueindex(1))) {
        lua_rawset(L, 1);
        return 0;
    }
    if (lua_rawequal(L, 3, lua_upvalueindex(2))) return 0;
    return cktrampoline_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(3)));
}

/* Key and kept value on top → the __newindex closure in their place. */
void ckindex_push_keeping(lua_State *L, int refuse_id) {
    lua_pushinteger(L, refuse_id);
    lua_pushcclosure(L, keeping_newindex, 3);
}

/* The id a field name has in the names table at registry key `names_ref` (FieldNames.swift): 0
   when the string at `index` (absolute) is not there yet, -1 when it is no string. */
lua_Integer ckindex_name_id(lua_State *L, int index, int names_ref) {
    if (lua_type(L, index) != LUA_TSTRING) return -1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, names_ref);
    lua_pushvalue(L, index);
    lua_Integer id = lua_rawget(L, -2) == LUA_TNUMBER ? lua_tointegerx(L, -1, NULL) : 0;
    lua_settop(L, -3);
    return id;
}

/* Gives the string at `index` (absolute) the id `id` in the names table at `names_ref`. */
void ckindex_add_name(lua_State *L, int index, int names_ref, lua_Integer id) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, names_ref);
    lua_pushvalue(L, index);
    lua_pushinteger(L, id);
    lua_rawset(L, -3);
    lua_settop(L, -2);
}
