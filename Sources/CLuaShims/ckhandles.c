/* Handles: the userdata Lua holds for runtime objects, made and found in one call each
   (ObjectRegistry keeps the slots; this is the Lua half, off Swift's per-call API cost). */
#include "ckshims.h"

int ck_push_live_handle(lua_State *L, int weak_ref, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, weak_ref);
    if (lua_rawgeti(L, -1, slot) != LUA_TNIL) {
        lua_remove(L, -2);
        return 1;
    }
    lua_pop(L, 2);
    return 0;
}

void ck_push_new_handle(lua_State *L, int weak_ref, int32_t slot, int32_t kind, int metatable_ref,
                        int user_values) {
    int32_t *payload = (int32_t *)lua_newuserdatauv(L, CK_HANDLE_SIZE, user_values);
    payload[0] = slot;
    payload[1] = kind;
    lua_rawgeti(L, LUA_REGISTRYINDEX, metatable_ref);
    lua_setmetatable(L, -2);
    lua_rawgeti(L, LUA_REGISTRYINDEX, weak_ref);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, slot);
    lua_pop(L, 1);
}
