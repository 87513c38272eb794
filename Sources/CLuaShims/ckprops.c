/* Props views: what Lua is given of a component's props. A userdata without bytes whose user
   values are the props table and the component's class, with a metatable shared by all views
   that reads through to the props (`__index`, `__len`, `__pairs`) and refuses writes. Raw access
   has nothing to reach (`next`, `rawget`, `rawset` and `rawlen` refuse a userdata), so no render,
   handler, test or scope function can change a generation's props behind the runtime. Shallow:
   a table inside the props is the script's own. The runtime itself reads the props table.
   (A view as a table with private keys handed the props to `next`; a per-view metatable with
   `__index` = the props reads faster but costs 370 bytes a view; an ephemeron cache of views
   made every collection walk all of them: +62% build instructions.) */
#include "ckshims.h"
#include "ckinternal.h"

/* The views' shared metatables (in the registry: props views', state views'), and the key that
   marks every view metatable (a class's scope view has its own: see ckprops_lend_view). */
static const char metatable_key = 'm', state_metatable_key = 's', marker_key = 'k';

/* Pushes the props the userdata at `i` shows and returns 1, or pushes nothing and returns 0: user
   value 1, or for a scope view (user value 3: its metatable) its metatable's `__index`. */
static int push_props(lua_State *L, int i) {
    if (lua_getiuservalue(L, i, 1) == LUA_TTABLE) return 1;
    lua_pop(L, 1);
    if (lua_getiuservalue(L, i, 3) == LUA_TTABLE) {
        lua_pushliteral(L, "__index");
        if (lua_rawget(L, -2) == LUA_TTABLE) {
            lua_remove(L, -2);
            return 1;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 0;
}

/* For the metamethods, which anything can call with anything (`getmetatable` is protected, but
   `debug.getmetatable` is not): the props table of the view at 1, or an error. */
static void push_checked_props_table(lua_State *L) {
    if (lua_type(L, 1) == LUA_TUSERDATA && ckshims_userdata_bytes(L, 1) == 0 && push_props(L, 1)) return;
    luaL_where(L, 1);
    lua_pushfstring(L, "[badArgument] %sa props view's metamethod was given a %s that is not one (or the view a "
                    "scope function was given, after that call); use props through indexing, # and pairs",
                    lua_tostring(L, -1), luaL_typename(L, 1));
    lua_error(L);
}

static int view_index(lua_State *L) {
    push_checked_props_table(L);
    lua_pushvalue(L, 2);
    lua_gettable(L, -2);
    return 1;
}

static const char *const props_hint =
    "props are read-only; pass new props from the parent's render, or keep the value in state and call updateState";
static const char *const state_hint =
    "state is read-only, as props are; call self:updateState(function(old) return new end) to change it";

/* A state view carries `true` as user value 3 (a props view has two; a scope view a table). */
static int is_state_view(lua_State *L, int i) {
    int is_state = lua_getiuservalue(L, i, 3) == LUA_TBOOLEAN;
    lua_pop(L, 1);
    return is_state;
}

static int view_newindex(lua_State *L) {
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    const char *owner = NULL;
    int is_state = lua_type(L, 1) == LUA_TUSERDATA && is_state_view(L, 1);
    const char *what = is_state ? "state" : "props", *hint = is_state ? state_hint : props_hint;
    if (lua_type(L, 1) == LUA_TUSERDATA && lua_getiuservalue(L, 1, 2) == LUA_TUSERDATA) {
        lua_getfield(L, -1, "name");
        owner = lua_tostring(L, -1);
    }
    ckwhere_script(L);
    const char *where = lua_tostring(L, -1);
    if (!owner) owner = "a component";
    if (key)
        lua_pushfstring(L, "[immutableComponent] %scannot set %s.%s of %s: %s", where, what, key, owner, hint);
    else
        lua_pushfstring(L, "[immutableComponent] %scannot set a %s key in the %s of %s: %s",
                        where, luaL_typename(L, 2), what, owner, hint);
    return lua_error(L);
}

static int view_len(lua_State *L) {
    push_checked_props_table(L);
    lua_len(L, -1);
    return 1;
}

/* `pairs(view)` iterates with this and the view itself: the props table is never handed out. */
static int view_next(lua_State *L) {
    push_checked_props_table(L);
    lua_pushvalue(L, 2);
    if (lua_next(L, -2)) return 2;
    lua_pushnil(L);
    return 1;
}

/* The iterator of the props table's own `__pairs`, called with the state it returned (upvalues),
   so that the table still is not handed out. */
static int view_meta_next(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 2);
    lua_call(L, 2, LUA_MULTRET);
    return lua_gettop(L) - 2;
}

/* As Lua's `pairs` on the table: its `__pairs` when it has one (run here, in the script's call,
   under its limits), else `next`. */
static int view_pairs(lua_State *L) {
    lua_settop(L, 1);
    push_checked_props_table(L);
    if (luaL_getmetafield(L, 2, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 2);
        lua_call(L, 1, 3);                           /* view props f s init */
        lua_pushvalue(L, 3);
        lua_pushvalue(L, 4);
        lua_pushcclosure(L, view_meta_next, 2);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 5);
        return 3;
    }
    lua_pushcfunction(L, view_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* A views' metatable named `name` (what `tostring` and `getmetatable` say), kept at `key`. */
static void open_metatable(lua_State *L, const char *name, const void *key) {
    lua_createtable(L, 0, 6);
    lua_pushcfunction(L, view_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, view_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, view_len);
    lua_setfield(L, -2, "__len");
    lua_pushcfunction(L, view_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__metatable");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__name");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &marker_key);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/* Props views and state views read alike; each says what it shows. Leaves the props views'
   metatable on the stack: Swift pins it under an integer key (rawgeti beats rawgetp). */
void ckprops_open_views(lua_State *L) {
    open_metatable(L, "read-only props", &metatable_key);
    open_metatable(L, "read-only state", &state_metatable_key);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &metatable_key);
}

/* The registry key Swift pinned the metatable under (its RefStore owns the integer keys). */
void ckprops_use_metatable_key(lua_State *L, int key) { ckinternal_extra_of(L)->props_metatable = key; }

/* Pushes a new view showing nothing yet, with `uvs` user values (2, or 3 for a state view). */
static void new_view(lua_State *L, int uvs) {
    lua_newuserdatauv(L, 0, uvs);
    if (uvs == 3) lua_rawgetp(L, LUA_REGISTRYINDEX, &state_metatable_key);
    else lua_rawgeti(L, LUA_REGISTRYINDEX, ckinternal_extra_of(L)->props_metatable);
    lua_setmetatable(L, -2);
}

static void make_view(lua_State *L, int uvs) {
    new_view(L, uvs);                                   /* class props view */
    lua_insert(L, -3);                                  /* view class props */
    lua_setiuservalue(L, -3, 1);
    lua_setiuservalue(L, -2, 2);
}

void ckprops_make_view(lua_State *L) { make_view(L, 2); }

/* class state -> view: the same view, whose writes say "state". */
void ckprops_make_state_view(lua_State *L) {
    make_view(L, 3);
    lua_pushboolean(L, 1);
    lua_setiuservalue(L, -2, 3);
}

int ckprops_is_view(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TUSERDATA || !lua_getmetatable(L, index)) return 0;
    int is_view = lua_rawgetp(L, -1, &marker_key) != LUA_TNIL;
    lua_pop(L, 2);
    return is_view;
}

int ckprops_is_live_view(lua_State *L, int index) {
    if (!ckprops_is_view(L, index) || !push_props(L, lua_absindex(L, index))) return 0;
    lua_pop(L, 1);
    return 1;
}

int ckprops_table(lua_State *L, int index) {
    index = lua_absindex(L, index);
    if (!ckprops_is_view(L, index) || !push_props(L, index)) return 0;   /* a scope view after its call */
    int is_state = is_state_view(L, index);
    lua_replace(L, index);
    return is_state ? 2 : 1;
}

/* A class's scope view: a view with a metatable of its own (user value 3), copied from the
   shared one, whose `__index` is the props table of the last call: reads then cost what a
   table's do, where the shared `__index` is a C call per read. That metatable's values are weak,
   so it keeps no props alive after the call (resetting `__index` after each call measured ~2%
   of a scoped leaf's build + mount); a view kept past its call reads the class's latest props
   while they live, read-only, then nothing. */
static void new_scope_view(lua_State *L, int cls) {
    lua_newuserdatauv(L, 0, 3);
    lua_pushvalue(L, cls);
    lua_setiuservalue(L, -2, 2);
    lua_createtable(L, 0, 8);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &metatable_key);
    lua_pushnil(L);
    while (lua_next(L, -2)) {                           /* view mt shared key value */
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -5);
    }
    lua_pop(L, 1);                                      /* view mt */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, -3, 3);
    lua_setmetatable(L, -2);
}

void ckprops_lend_view(lua_State *L, int cls, int props, int index_key) {
    if (lua_getiuservalue(L, cls, CK_CLASS_SCOPE_VIEW) != LUA_TUSERDATA) {
        lua_pop(L, 1);
        new_scope_view(L, cls);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, cls, CK_CLASS_SCOPE_VIEW);
    }
    lua_getiuservalue(L, -1, 3);
    lua_pushvalue(L, index_key);                        /* raw: lua_setfield interns the key each call */
    lua_pushvalue(L, props);
    lua_rawset(L, -3);
    lua_settop(L, -2);
}
