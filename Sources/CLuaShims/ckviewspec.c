/* A view spec's attributes copied for the view in one C call: a view function's spec is read
   for every instance it renders (1,000 rows made 1,000 copies through a dozen Swift-to-Lua API
   calls each). Raw operations only, so it cannot raise; allocation never fails while Swift runs. */
#include "ckshims.h"

/* Pushes the raw `class` and `attributes` of the table at `t`; returns the type of `class`. The
   names are C literals: Lua's string cache finds them by address (a Swift string was hashed). */
int ckviewspec_fields(lua_State *L, int t) {
    t = lua_absindex(L, t);
    lua_pushstring(L, "class");
    int cls = lua_rawget(L, t);
    lua_pushstring(L, "attributes");
    lua_rawget(L, t);
    return cls;
}

/* Pushes a raw copy of the table at `attrs` and returns 1 when none of its values is a userdata
   (an action attribute is one: Swift splits those out) and it has at most `limit` keys (Swift's
   loop ticks the turn's limits over a longer one); otherwise pushes nothing and returns 0. */
int ckviewspec_plain_copy(lua_State *L, int attrs, int limit) {
    attrs = lua_absindex(L, attrs);
    if (!lua_checkstack(L, 4)) return 0;
    lua_createtable(L, 0, 4);                   /* copy */
    int copy = lua_gettop(L), n = 0;
    lua_pushnil(L);
    while (lua_next(L, attrs) != 0) {           /* copy k v */
        if (lua_type(L, -1) == LUA_TUSERDATA || ++n > limit) { lua_settop(L, copy - 1); return 0; }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);                      /* copy k k v */
        lua_rawset(L, copy);                    /* copy k */
    }
    return 1;
}
