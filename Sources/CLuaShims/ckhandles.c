/* Handles: the userdata Lua holds for runtime objects, made and found in one call each
   (ObjectRegistry keeps the slots; this is the Lua half, off Swift's per-call API cost). */
#include "ckshims.h"

int ckhandles_push_live(lua_State *L, int weak_ref, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, weak_ref);
    if (lua_rawgeti(L, -1, slot) != LUA_TNIL) {
        lua_remove(L, -2);
        return 1;
    }
    lua_pop(L, 2);
    return 0;
}

void ckhandles_push_new(lua_State *L, int weak_ref, int32_t slot, int32_t kind, int metatable_ref,
                        int user_values) {
    ckhandles_push_new_owned(L, weak_ref, slot, kind, metatable_ref, user_values, 0, 0, 0);
}

void ckhandles_push_new_owned(lua_State *L, int weak_ref, int32_t slot, int32_t kind, int metatable_ref,
                              int user_values, int arena, int arena_uv, int dest) {
    int32_t *payload = (int32_t *)lua_newuserdatauv(L, CK_HANDLE_SIZE, user_values);
    payload[0] = slot;
    payload[1] = kind;
    payload[CK_HANDLE_KEYS] = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, metatable_ref);
    lua_setmetatable(L, -2);
    lua_rawgeti(L, LUA_REGISTRYINDEX, weak_ref);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, slot);
    lua_settop(L, -2);
    if (arena) {
        lua_pushvalue(L, arena);
        lua_setiuservalue(L, -2, arena_uv);
    }
    if (dest) {
        lua_copy(L, -1, dest);
        lua_settop(L, dest);
    }
}

int32_t ckhandles_at(lua_State *L, int index, const void *const *metatables, int32_t kinds, int32_t *kind) {
    /* Not a userdata: NULL; a light one has no bytes (rawlen 0), so fails the size check. */
    const int32_t *payload = (const int32_t *)lua_touserdata(L, index);
    if (!payload || ckshims_userdata_bytes(L, index) != CK_HANDLE_SIZE || !lua_getmetatable(L, index))
        return 0;
    const void *metatable = lua_topointer(L, -1);
    lua_settop(L, -2);
    if (payload[1] <= 0 || payload[1] >= kinds || metatables[payload[1]] != metatable) return 0;
    *kind = payload[1];
    return payload[0];
}

/* The slot of the handle of kind `kind` (metatable `metatable`) at `index`, or 0. */
static int32_t slot_of(lua_State *L, int index, const void *metatable, int32_t kind) {
    const int32_t *payload = (const int32_t *)lua_touserdata(L, index);
    if (!payload || ckshims_userdata_bytes(L, index) != CK_HANDLE_SIZE || !lua_getmetatable(L, index)) return 0;
    const void *found = lua_topointer(L, -1);
    lua_settop(L, -2);
    return found == metatable && payload[1] == kind ? payload[0] : 0;
}

int ckhandles_list(lua_State *L, int t, const void *metatable, int32_t kind, int32_t *slots, int cap,
                   int64_t *last, int *status) {
    int n = 0;
    while (lua_next(L, t)) {                            /* key value */
        lua_Integer i = lua_isinteger(L, -2) ? lua_tointegerx(L, -2, NULL) : 0;
        int32_t slot = slot_of(L, -1, metatable, kind);
        if (i == *last + 1 && slot > 0) {               /* entries 1...n, no hole: each child's entry is its index */
            *last = i;
            slots[n++] = slot;
        } else if (i >= 1 || slot > 0) {                /* a hole, out of order, a bad entry, a dropped child */
            lua_settop(L, -3);
            *status = -1;
            return n;
        }
        lua_settop(L, -2);                              /* key */
        if (n == cap) { *status = 1; return n; }
    }
    *status = 0;
    return n;
}

void ckhandles_compact(lua_State *L, int weak_ref) {
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, weak_ref);
    int old = top + 1, live = 0;
    lua_pushnil(L);
    while (lua_next(L, old)) { live++; lua_settop(L, -2); }
    lua_createtable(L, 0, live);
    int fresh = top + 2;
    lua_pushnil(L);
    while (lua_next(L, old)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, fresh);
    }
    if (lua_getmetatable(L, old)) lua_setmetatable(L, fresh);
    lua_rawseti(L, LUA_REGISTRYINDEX, weak_ref);
    lua_settop(L, top);
}
