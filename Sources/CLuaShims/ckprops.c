/* Props views: what Lua is given of a component's props. A table holding the props table and
   the component's class under private keys, with a metatable shared by all views that reads
   through to the props (`__index`, `__len`, `__pairs`) and refuses writes, so no render,
   handler or test can change a generation's props behind the runtime. Shallow: a table inside
   the props is the script's own. The runtime itself reads the props table, never the view.
   (A per-view metatable with `__index` = the props reads faster but costs 370 bytes a view; an
   ephemeron cache of views made every collection walk all of them: +62% build instructions.) */
#include "ckshims.h"

static const char props_key = 'p', owner_key = 'o', metatable_key = 'm', state_key = 's';

static void push_props_table(lua_State *L, int view) {
    lua_rawgetp(L, view, &props_key);
}

/* For the metamethods, which anything can call with anything (`getmetatable` is protected, but
   `debug.getmetatable` is not): the props table of the view at 1, or an error. */
static void push_checked_props_table(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE && (push_props_table(L, 1), lua_type(L, -1) == LUA_TTABLE)) return;
    luaL_where(L, 1);
    lua_pushfstring(L, "[badArgument] %sa props view's metamethod was given a %s that is not one; "
                    "use the view through indexing, # and pairs", lua_tostring(L, -1), luaL_typename(L, 1));
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

static int view_newindex(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    int is_state = lua_rawgetp(L, 1, &state_key) != LUA_TNIL;
    const char *what = is_state ? "state" : "props", *hint = is_state ? state_hint : props_hint;
    if (lua_rawgetp(L, 1, &owner_key) != LUA_TNIL) lua_getfield(L, -1, "name");
    const char *owner = lua_tostring(L, -1);
    luaL_where(L, 1);
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

static int view_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

static int view_pairs(lua_State *L) {
    lua_pushcfunction(L, view_next);
    push_checked_props_table(L);
    lua_pushnil(L);
    return 3;
}

void ck_open_props_views(lua_State *L) {
    lua_createtable(L, 0, 5);
    lua_pushcfunction(L, view_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, view_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, view_len);
    lua_setfield(L, -2, "__len");
    lua_pushcfunction(L, view_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushliteral(L, "read-only props");
    lua_setfield(L, -2, "__metatable");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &metatable_key);
}

void ck_make_props_view(lua_State *L) {
    lua_createtable(L, 0, 2);                           /* class props view */
    lua_insert(L, -3);                                  /* view class props */
    lua_rawsetp(L, -3, &props_key);
    lua_rawsetp(L, -2, &owner_key);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &metatable_key);
    lua_setmetatable(L, -2);
}

/* class state -> view: the same view, whose writes say "state". */
void ck_make_state_view(lua_State *L) {
    ck_make_props_view(L);
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &state_key);
}

int ck_is_props_view(lua_State *L, int index) {
    if (!lua_getmetatable(L, index)) return 0;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &metatable_key);
    int is_view = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return is_view;
}

int ck_props_table(lua_State *L, int index) {
    index = lua_absindex(L, index);
    if (!ck_is_props_view(L, index)) return 0;
    push_props_table(L, index);
    if (lua_type(L, -1) != LUA_TTABLE) {                /* a forged view (debug.setmetatable) */
        lua_pop(L, 1);
        return 0;
    }
    int is_state = lua_rawgetp(L, index, &state_key) != LUA_TNIL;
    lua_pop(L, 1);
    lua_replace(L, index);
    return is_state ? 2 : 1;
}
