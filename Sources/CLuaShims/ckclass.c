/* `Class(props)`: the `__call` of component classes. A class whose scope is a function keeps
   it as its handle's user value; inside a render (the runtime's render depth is up, so a build
   is under way and `updateState` is refused) it runs here, as a plain Lua call from a C function
   Lua called: its errors unwind to the render's protected call with no Swift frame in between,
   and it costs no protected call of its own. What is not a class handle with props that are a
   table, a props view or nil goes to the plain Swift function, which reports what is wrong; the others are
   told the class is checked. A pure class's instances are found again by key here (`keep`
   below): a parent re-rendering 1,000 unchanged rows asks Swift one short question a row. */
#include "ckshims.h"
#include "ckinternal.h"

/* What a class call reads on every `Class(props)`, in one block (its upvalue 2): the Swift
   functions' ids and the class metatable's address (upvalue 1 keeps the metatable alive), so
   the call reads no integers and compares no values through the API. */
typedef struct class_call_ids {
    const void *metatable;
    const ck_callstate *state;
    int plain, checked, computed, keep;
} class_call_ids;

/* Pushes props.key (props at 2) raw, by the interned name upvalue 4 keeps (no lookup by address). */
static int push_key(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(4));
    return lua_rawget(L, 2);
}

/* class props -> class props keep key when the class keeps its instances by key (user value
   CK_CLASS_KEEP, made by Swift for pure classes) and the props' key can index them; else
   class props, and 0. */
static int push_keep_and_key(lua_State *L) {
    if (lua_getiuservalue(L, 1, CK_CLASS_KEEP) != LUA_TTABLE) { lua_settop(L, 2); return 0; }
    int type = push_key(L);
    if (type == LUA_TSTRING || (type == LUA_TNUMBER && lua_isinteger(L, 4))) return 1;
    lua_settop(L, 2);
    return 0;
}

/* class props keep key instance -> class props keep key instance answer: the props compared
   here with those the instance's handle carries (ckcompare's 1 equal, 0 not, 2 maybe; 2 also
   when the handle carries none), so Swift compares only a "maybe". */
static void push_props_answer(lua_State *L) {
    int answer = 2;
    if (lua_getiuservalue(L, 5, CK_COMPONENT_PROPS) == LUA_TTABLE) {
        int32_t keys = ((const int32_t *)lua_touserdata(L, 5))[CK_HANDLE_KEYS];
        answer = keys > 0 ? ckcompare_shallow_equal_counted(L, 2, 6, keys - 1) : ckcompare_shallow_equal(L, 6, 2);
    }
    lua_pop(L, 1);
    lua_pushinteger(L, answer);
}

/* class props keep key: the instance last made or kept for the key, when Swift says the build
   keeps it (its scope unclaimed here, its props shallow-equal, no update pending): 1, with it on
   top (the answer dropped). Else 0, with nothing claimed and the stack as it was. */
static int kept(lua_State *L, const class_call_ids *ids) {
    lua_pushvalue(L, 4);
    if (lua_rawget(L, 3) == LUA_TUSERDATA && ckshims_userdata_bytes(L, 5) == CK_HANDLE_SIZE) {
        push_props_answer(L);
        if (cktrampoline_call_swift(L, ids->keep) == 1) { lua_settop(L, 5); return 1; }
    }
    lua_settop(L, 4);
    return 0;
}

/* The handle at `h`, made for the props at 2 (`keys` of them), carries them for `kept`'s compare,
   which then walks the next props alone. A kept instance's own props are only shallow-equal to
   these; a compare with either answers alike, as a "maybe" goes to Swift, which compares with
   the instance's own. */
static void carry_props(lua_State *L, int h, long keys) {
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, h, CK_COMPONENT_PROPS);
    ((int32_t *)lua_touserdata(L, h))[CK_HANDLE_KEYS] = keys < INT32_MAX ? (int32_t)keys + 1 : 0;
}

/* class props keep key -> the construction's result, recorded under the key. It is given the
   key read here, no identifier (as a computed scope's are) and whether the props reach nothing
   (class props keep key nil plain: Swift's burial of a replaced row then need not look), and
   pushes its handle above them. */
static int construct_recording(lua_State *L, const class_call_ids *ids) {
    int plain;
    long keys = ckcompare_count(L, 2, &plain);
    lua_pushnil(L);
    lua_pushboolean(L, plain);
    int n = cktrampoline_call_swift(L, ids->computed);
    if (n == 1 && lua_gettop(L) == 7 && lua_type(L, 7) == LUA_TUSERDATA) {
        lua_pushvalue(L, 4);
        lua_pushvalue(L, 7);
        lua_rawset(L, 3);
        carry_props(L, 7, keys);
    }
    return n;
}

/* `Class(props)` of a checked class whose scope is no function: kept or constructed. */
static int construct_checked(lua_State *L, const class_call_ids *ids, int given) {
    lua_settop(L, 2);
    if (ids->state->render_depth <= 0 || given != LUA_TTABLE || !push_keep_and_key(L))
        return cktrampoline_call_swift(L, ids->checked);
    return kept(L, ids) ? 1 : construct_recording(L, ids);
}

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
    if (state->render_depth <= 0 || lua_getiuservalue(L, 1, 1) != LUA_TFUNCTION)
        return construct_checked(L, ids, given);
    /* class props scope */
    if (props != LUA_TTABLE) {                          /* no props: the table the class gets */
        lua_newtable(L);
        lua_replace(L, 2);
    } else if (given != LUA_TTABLE) {
        ckprops_table(L, 2);                           /* Class(self.props): the table */
    }
    push_key(L);                                        /* the key as given */
    /* The scope function gets the class's scope view, reading the props for the call: a view
       made per component and kept by it measured +40% of a scoped leaf's build + mount. */
    lua_pushvalue(L, 3);
    ckprops_lend_view(L, 1, 2, lua_upvalueindex(3));   /* class props scope key scope view */
    lua_call(L, 1, 1);                                  /* class props scope key identifier */
    return cktrampoline_call_swift(L, ids->computed);
}

void ckclass_push_call(lua_State *L, int metatable, int plain_id, int checked_id, int computed_id,
                        int keep_id, const ck_callstate *state) {
    metatable = lua_absindex(L, metatable);
    lua_pushvalue(L, metatable);
    class_call_ids *ids = (class_call_ids *)lua_newuserdatauv(L, sizeof(class_call_ids), 0);
    ids->metatable = lua_topointer(L, metatable);
    ids->state = state;
    ids->plain = plain_id;
    ids->checked = checked_id;
    ids->computed = computed_id;
    ids->keep = keep_id;
    lua_pushliteral(L, "__index");
    lua_pushliteral(L, "key");
    lua_pushcclosure(L, class_call, 4);
}

void ckclass_set_keep(lua_State *L, int cls, int keeps) {
    cls = lua_absindex(L, cls);
    int has = lua_getiuservalue(L, cls, CK_CLASS_KEEP) == LUA_TTABLE;
    lua_pop(L, 1);
    if (has == !!keeps) return;
    if (!keeps) {
        lua_pushnil(L);
    } else {
        lua_createtable(L, 0, 0);                       /* keep */
        lua_createtable(L, 0, 1);                       /* keep mt: values weak, no instance kept alive */
        lua_pushliteral(L, "__mode");
        lua_pushliteral(L, "v");
        lua_rawset(L, -3);
        lua_setmetatable(L, -2);
    }
    lua_setiuservalue(L, cls, CK_CLASS_KEEP);
}
