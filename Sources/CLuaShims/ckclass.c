/* `Class(props)`: the `__call` of component classes. A class whose scope is a function keeps
   it as its handle's user value; inside a render (the runtime's render depth is up, so a build
   is under way and `updateState` is refused) it runs here, as a plain Lua call from a C function
   Lua called: its errors unwind to the render's protected call with no Swift frame in between,
   and it costs no protected call of its own. What is not a class handle with props that are a
   table, a props view or nil goes to the plain Swift function, which reports what is wrong; the others are
   told the class is checked. */
#include "ckshims.h"
#include "ckinternal.h"

/* What a class call reads on every `Class(props)`, in one block (its upvalue 2): the Swift
   functions' ids and the class metatable's address (upvalue 1 keeps the metatable alive), so
   the call reads no integers and compares no values through the API. */
typedef struct class_call_ids {
    const void *metatable;
    const ck_callstate *state;
    int plain, checked, computed;
} class_call_ids;

static int class_call(lua_State *L) {
    const class_call_ids *ids = (const class_call_ids *)lua_touserdata(L, lua_upvalueindex(2));
    const ck_callstate *state = ids->state;
    int plain = ids->plain;
    int given = lua_type(L, 2), props = given;
    if (given == LUA_TUSERDATA && ckprops_is_live_view(L, 2)) props = LUA_TTABLE;   /* Class(self.props) */
    if (props > LUA_TNIL && props != LUA_TTABLE) return cktrampoline_call_swift(L, plain);
    if (lua_type(L, 1) != LUA_TUSERDATA || ckshims_userdata_bytes(L, 1) != CK_HANDLE_SIZE || !lua_getmetatable(L, 1))
        return cktrampoline_call_swift(L, plain);
    int is_class = lua_topointer(L, -1) == ids->metatable;
    lua_pop(L, 1);
    if (!is_class) return cktrampoline_call_swift(L, plain);
    lua_settop(L, 2);                                   /* class props */
    if (state->render_depth <= 0 || lua_getiuservalue(L, 1, 1) != LUA_TFUNCTION) {
        lua_settop(L, 2);
        return cktrampoline_call_swift(L, ids->checked);
    }                                                   /* class props scope */
    if (props != LUA_TTABLE) {                          /* no props: the table the class gets */
        lua_newtable(L);
        lua_replace(L, 2);
    } else if (given != LUA_TTABLE) {
        ckprops_table(L, 2);                           /* Class(self.props): the table */
    }
    ckmacros_rawgetkey(L, 2);                                 /* the key as given */
    /* The scope function gets the class's scope view, reading the props for the call: a view
       made per component and kept by it measured +40% of a scoped leaf's build + mount. */
    lua_pushvalue(L, 3);
    ckprops_lend_view(L, 1, 2, lua_upvalueindex(3));   /* class props scope key scope view */
    lua_call(L, 1, 1);                                  /* class props scope key identifier */
    return cktrampoline_call_swift(L, ids->computed);
}

void ckclass_push_call(lua_State *L, int metatable, int plain_id, int checked_id, int computed_id,
                        const ck_callstate *state) {
    metatable = lua_absindex(L, metatable);
    lua_pushvalue(L, metatable);
    class_call_ids *ids = (class_call_ids *)lua_newuserdatauv(L, sizeof(class_call_ids), 0);
    ids->metatable = lua_topointer(L, metatable);
    ids->state = state;
    ids->plain = plain_id;
    ids->checked = checked_id;
    ids->computed = computed_id;
    lua_pushliteral(L, "__index");
    lua_pushcclosure(L, class_call, 3);
}
