/* Arenas: where the script values the core holds live (RefStore keeps the slots; this is the Lua
   half). An arena is a table of values, reached by Lua through its owner's handle (a user value)
   and kept in a weak-valued index by id so Swift can find it; the registry pins it only while
   the core roots its owner. So Lua's collector sees which values an object holds, and a cycle
   through them (a render that names its class, props that name their host) is collected whole.
   An arena's own slot 0 holds its id: its finalizer tells Swift which one went (RefStore.lost). */
#include "ckshims.h"

/* Pushes arena `id` (a table) and returns 1, or pushes nothing and returns 0 (it was collected,
   or is being finalized: weak values let go of those first). */
static int push_arena(lua_State *L, int index_ref, lua_Integer id) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, index_ref);
    if (lua_rawgeti(L, -1, id) == LUA_TTABLE) {
        lua_replace(L, -2);
        return 1;
    }
    lua_settop(L, -3);
    return 0;
}

int ckarenas_push(lua_State *L, int index_ref, lua_Integer id) {
    return push_arena(L, index_ref, id);
}

void ckarenas_new(lua_State *L, int index_ref, lua_Integer id, int metatable_ref) {
    lua_createtable(L, 4, 1);
    lua_pushinteger(L, id);
    lua_rawseti(L, -2, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, metatable_ref);
    lua_setmetatable(L, -2);
    ckarenas_index_arena(L, index_ref, id);
}

void ckarenas_index_arena(lua_State *L, int index_ref, lua_Integer id) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, index_ref);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, id);
    lua_pop(L, 1);
}

/* The hot ones (a component's props go through set, every read of them through get) use as few
   API calls as they can: each is a function call into liblua. */
int ckarenas_set(lua_State *L, int index_ref, lua_Integer id, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, index_ref);      /* value index */
    if (lua_rawgeti(L, -1, id) != LUA_TTABLE) {         /* value index arena */
        lua_settop(L, -3);
        return 0;                                       /* the value stays on top */
    }
    lua_pushvalue(L, -3);
    lua_rawseti(L, -2, slot);
    lua_settop(L, -4);
    return 1;
}

int ckarenas_open(lua_State *L, int index_ref, lua_Integer id, int value, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, index_ref);
    if (lua_rawgeti(L, -1, id) != LUA_TTABLE) {
        lua_settop(L, -3);
        return 0;
    }
    lua_replace(L, -2);
    lua_pushvalue(L, value);
    lua_rawseti(L, -2, slot);
    return 1;
}

void ckarenas_clear(lua_State *L, int index_ref, lua_Integer id, lua_Integer slot) {
    if (!push_arena(L, index_ref, id)) return;
    lua_pushnil(L);
    lua_rawseti(L, -2, slot);
    lua_pop(L, 1);
}

int ckarenas_get(lua_State *L, int index_ref, lua_Integer id, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, index_ref);      /* index */
    int type = lua_rawgeti(L, -1, id) == LUA_TTABLE ? lua_rawgeti(L, -1, slot) : (lua_pushnil(L), LUA_TNIL);
    lua_copy(L, -1, -3);                                /* value arena value */
    lua_settop(L, -3);
    return type;
}

/* A pinned arena (its owner rooted: a tracked host, a registered class) is found by its
   registry key, one lookup fewer than by id: the walk pushes handlers, builds store props. */
int ckarenas_pinned_get(lua_State *L, int pin, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, pin);
    int type = lua_rawgeti(L, -1, slot);
    lua_copy(L, -1, -2);
    lua_settop(L, -2);
    return type;
}

void ckarenas_pinned_set(lua_State *L, int pin, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, pin);             /* value arena */
    lua_rotate(L, -2, 1);                               /* arena value */
    lua_rawseti(L, -2, slot);
    lua_settop(L, -2);
}

void ckarenas_pinned_open(lua_State *L, int pin, int value, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, pin);
    lua_pushvalue(L, value);
    lua_rawseti(L, -2, slot);
}

void ckarenas_pinned_clear(lua_State *L, int pin, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, pin);
    lua_pushnil(L);
    lua_rawseti(L, -2, slot);
    lua_settop(L, -2);
}

/* Pushes a new props view of the props in pinned arena `pin`'s slot `props` (the class handle
   in slot `cls`; 0: none), kept in slot `keep`: a new component's first view in one call. */
void ckarenas_pinned_make_view(lua_State *L, int pin, lua_Integer props, lua_Integer cls, lua_Integer keep) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, pin);             /* arena */
    if (cls) lua_rawgeti(L, -1, cls); else lua_pushnil(L);
    lua_rawgeti(L, -2, props);                          /* arena class props */
    ckprops_make_view(L);                               /* arena view */
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, keep);
    lua_remove(L, -2);
}

void ckarenas_pinned_set_handle_arena(lua_State *L, int handle, int uv, int pin) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, pin);
    lua_setiuservalue(L, handle < 0 ? handle - 1 : handle, uv);
}

void ckarenas_forget(lua_State *L, int index_ref, lua_Integer id) {
    if (!push_arena(L, index_ref, id)) return;
    lua_pushnil(L);
    lua_setmetatable(L, -2);                            /* no finalizer for a table Swift forgot */
    lua_pushnil(L);
    lua_rawseti(L, -2, 0);
    lua_pop(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, index_ref);
    lua_pushnil(L);
    lua_rawseti(L, -2, id);
    lua_pop(L, 1);
}

lua_Integer ckarenas_id(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TTABLE || lua_rawgeti(L, index, 0) != LUA_TNUMBER) {
        lua_pop(L, 1);
        return 0;
    }
    lua_Integer id = lua_tointegerx(L, -1, NULL);
    lua_pop(L, 1);
    return id;
}

int ckarenas_set_handle_arena(lua_State *L, int handle, int uv, int index_ref, lua_Integer id) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, index_ref);
    if (lua_rawgeti(L, -1, id) != LUA_TTABLE) {
        lua_settop(L, -3);
        return 0;
    }
    lua_setiuservalue(L, handle < 0 ? handle - 2 : handle, uv);
    lua_settop(L, -2);
    return 1;
}

/* Whether the table at `index` holds (as keys and values) only strings, numbers, booleans and
   light userdata: nothing that can reach another value. Raw: lua_next runs no metamethod, and
   raises only for a key changed in the walk. */
int ckarenas_is_plain_table(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TTABLE) return 0;
    index = lua_absindex(L, index);
    int top = lua_gettop(L), plain = 1;
    lua_pushnil(L);
    while (lua_next(L, index)) {
        if (lua_type(L, -2) > LUA_TSTRING || lua_type(L, -1) > LUA_TSTRING) { plain = 0; break; }
        lua_settop(L, -2);
    }
    lua_settop(L, top);
    return plain;
}

/* The same for the value in slot `slot` of the pinned arena `pin`, in one call. */
int ckarenas_pinned_is_plain(lua_State *L, int pin, lua_Integer slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, pin);
    lua_rawgeti(L, -1, slot);
    int plain = ckarenas_is_plain_table(L, -1);
    lua_settop(L, -3);
    return plain;
}

static long long heap_bytes(lua_State *L) {
    int kb = lua_gc(L, LUA_GCCOUNT, 0);
    if (kb < 0) return -1;
    return (long long)kb * 1024 + lua_gc(L, LUA_GCCOUNTB, 0);
}

int ckarenas_shrink(lua_State *L, int index_ref, lua_Integer id, int pin, lua_Integer most) {
    long long before = heap_bytes(L);
    if (before < 0) return -1;
    if (pin) lua_rawgeti(L, LUA_REGISTRYINDEX, pin);
    else if (!push_arena(L, index_ref, id)) return -1;
    int t = lua_gettop(L), resized = 0;
    lua_Integer n = 0;
    while (!resized && n < most) {
        n++;
        lua_pushinteger(L, -n);
        lua_pushboolean(L, 1);
        lua_rawset(L, t);
        resized = heap_bytes(L) != before;
    }
    for (lua_Integer k = 1; k <= n; k++) {
        lua_pushinteger(L, -k);
        lua_pushnil(L);
        lua_rawset(L, t);
    }
    lua_settop(L, t - 1);
    return resized;
}

/* Lua clears weak values before it runs the finalizers of a collection: an arena being finalized
   has left the index while a script's finalizer can still reach it through a handle it holds.
   Pushes arena `id` found through user value `uv` of the handle at `handle` (absolute); returns 0
   (nothing pushed) if that is not arena `id` (a stale instance's grave carries its props, while
   its state stays in its host's arena: found by the index, or not at all). */
int ckarenas_refind(lua_State *L, int handle, int uv, lua_Integer id) {
    if (lua_getiuservalue(L, handle, uv) == LUA_TTABLE && ckarenas_id(L, -1) == id) return 1;
    lua_pop(L, 1);
    return 0;
}
