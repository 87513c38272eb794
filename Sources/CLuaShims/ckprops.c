/* Props views: what Lua is given of a component's props. An empty table whose metatable reads
   through to the props table (`__index`, `__len`, `__pairs`) and refuses writes, so no render,
   handler or test can change a generation's props behind the runtime. One view per props table,
   kept in an ephemeron table, so the same props give the same value. Shallow: a table inside the
   props is the script's own. The runtime itself reads the props table, never the view. */
#include "ckshims.h"

/* The metatable's slot beside its metamethods: the class of the component it was made for. */
enum { VIEW_OWNER = 1 };

static void push_props_table(lua_State *L, int view) {
    lua_getmetatable(L, view);
    lua_getfield(L, -1, "__index");
    lua_remove(L, -2);
}

static int view_newindex(lua_State *L) {
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    lua_getmetatable(L, 1);
    if (lua_rawgeti(L, -1, VIEW_OWNER) != LUA_TNIL) lua_getfield(L, -1, "name");
    const char *owner = lua_tostring(L, -1);
    luaL_where(L, 1);
    if (key)
        lua_pushfstring(L, "[immutableComponent] %scannot set props.%s of %s: props are read-only; "
                        "pass new props from the parent's render, or keep the value in state and call updateState",
                        lua_tostring(L, -1), key, owner ? owner : "a component");
    else
        lua_pushfstring(L, "[immutableComponent] %scannot set a %s key in the props of %s: props are read-only; "
                        "pass new props from the parent's render, or keep the value in state and call updateState",
                        lua_tostring(L, -1), luaL_typename(L, 2), owner ? owner : "a component");
    return lua_error(L);
}

static int view_len(lua_State *L) {
    push_props_table(L, 1);
    lua_len(L, -1);
    return 1;
}

static int view_next(lua_State *L) {
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

static int view_pairs(lua_State *L) {
    lua_pushcfunction(L, view_next);
    push_props_table(L, 1);
    lua_pushnil(L);
    return 3;
}

void ck_push_props_views(lua_State *L) {
    lua_createtable(L, 0, 0);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
}

int ck_is_props_view(lua_State *L, int index) {
    if (!lua_getmetatable(L, index)) return 0;
    int is_view = lua_rawgetp(L, -1, (void *)view_newindex) == LUA_TBOOLEAN;
    lua_pop(L, 2);
    return is_view;
}

int ck_push_cached_props_view(lua_State *L, int views_ref) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, views_ref);       /* props views */
    lua_pushvalue(L, -2);
    if (lua_rawget(L, -2) != LUA_TTABLE) {              /* props views view? */
        lua_pop(L, 2);
        return 0;
    }
    lua_replace(L, -3);
    lua_pop(L, 1);
    return 1;
}

void ck_make_props_view(lua_State *L, int views_ref) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, views_ref);       /* class props views */
    lua_createtable(L, 0, 0);                           /* class props views view */
    lua_createtable(L, 1, 6);                           /* class props views view mt */
    lua_pushvalue(L, -4);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, view_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, view_len);
    lua_setfield(L, -2, "__len");
    lua_pushcfunction(L, view_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushliteral(L, "read-only props");
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);                              /* the mark ck_is_props_view looks for */
    lua_rawsetp(L, -2, (void *)view_newindex);
    lua_pushvalue(L, -5);
    lua_rawseti(L, -2, VIEW_OWNER);
    lua_setmetatable(L, -2);                            /* class props views view */
    lua_pushvalue(L, -3);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);                                  /* views[props] = view */
    lua_replace(L, -4);                                 /* view props views */
    lua_pop(L, 2);
}

void ck_props_table(lua_State *L, int index) {
    index = lua_absindex(L, index);
    if (!ck_is_props_view(L, index)) return;
    push_props_table(L, index);
    lua_replace(L, index);
}
