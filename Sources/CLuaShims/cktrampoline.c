/* The one Swift-function trampoline: Swift returns CK_RAISE, and C raises after Swift returned. */
#include "ckshims.h"
#include "ckinternal.h"

static ck_dispatch_fn dispatcher = NULL;

void cktrampoline_set_dispatcher(ck_dispatch_fn fn) { dispatcher = fn; }

int cktrampoline_raise_catalogued(lua_State *L, const char *id, int level, const char *detail) {
    lua_pushfstring(L, "[%s] ", id);
    luaL_where(L, level);
    lua_pushstring(L, detail);
    lua_concat(L, 3);
    return lua_error(L);
}

static int raise_memory_overshoot(lua_State *L) {
    ck_memory *m = ckinternal_extra_of(L)->memory;
    m->exceeded = 0;
    /* Swift's allocation passed it: the script line is the one that called the Swift function. */
    ckinternal_extra_of(L)->struck[0] = '\0';
    lua_pushstring(L, ckalloc_limit_message(L, L));
    return lua_error(L);
}

/* Calls from Lua into Swift nested inside each other (a render that builds a host, a handler
   that sends): each runs Swift frames Lua's own count of nested C calls does not weigh, and under
   `ulimit -s 512` a few dozen overflowed the C stack (SIGSEGV). Refused with the script's
   file:line before Swift runs when the stack is short (ckcstack.c), and past a depth no program
   needs, which also comes before Lua's own uncatalogued "C stack overflow" (200 C calls). */
static int raise_stack_limit(lua_State *L, int too_deep, size_t left, size_t size) {
    lua_pushliteral(L, "[stackLimit] ");
    ckwhere_script(L);
    if (!too_deep)
        lua_pushfstring(L, "calls between Lua and ckrun (host builds, sends, mounts, class calls) nested too deep for "
                           "the C stack (%d KB left of %d KB)", (int)(left / 1024), (int)(size / 1024));
    else
        lua_pushfstring(L, "calls between Lua and ckrun (host builds, sends, mounts, class calls) nested deeper "
                           "than %d", CK_SWIFT_DEPTH_MAX);
    lua_pushliteral(L, "; nest them less deeply: make hosts and send actions one after another, not from "
                       "inside each other's renders and handlers");
    lua_concat(L, 4);
    return lua_error(L);
}

void cktrampoline_refuse_depth(lua_State *L, int depth) {
    size_t left, size;
    if (!ckcstack_has_room(&left, &size)) raise_stack_limit(L, 0, left, size);
    if (depth >= CK_SWIFT_DEPTH_MAX) raise_stack_limit(L, 1, 0, 0);
}

/* The running thread and Swift mode are saved here and restored here (and by every protected call
   from Swift, ckpcall_at), so no Swift code has to restore them and no unwind can leave them wrong. */
int cktrampoline_call_swift(lua_State *L, int id) {
    ck_extra *e = ckinternal_extra_of(L);
    ckinternal_check_call_depth(L, e->swift_depth);
    ck_memory *m = e->memory;
    lua_State *thread = e->current;
    e->current = L;
    m->in_swift++;
    e->swift_depth++;
    int n = dispatcher(L, id);
    e->swift_depth--;
    m->in_swift--;
    e->current = thread;
    if (n == CK_RAISE) return lua_error(L);
    if (m->exceeded && m->in_swift == 0) {
        /* Garbage may be all that is over the limit (a failed allocation just unwound): collect first. */
        lua_gc(L, LUA_GCCOLLECT);
        if (ckshims_over_limit(m)) return raise_memory_overshoot(L);
        m->exceeded = 0;
    }
    return n;
}

static int trampoline(lua_State *L) {
    return cktrampoline_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
}

void cktrampoline_push_swift_function(lua_State *L, int function_id) {
    lua_pushinteger(L, function_id);
    lua_pushcclosure(L, trampoline, 1);
}

int cktrampoline_swift_function_id(lua_State *L, int idx) {
    if (lua_tocfunction(L, idx) != trampoline) return -1;
    if (lua_getupvalue(L, idx, 1) == NULL) return -1;
    int id = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return id;
}

/* A collectable Swift function's second upvalue: a userdata holding its id, whose finalizer hands
   the id back to Swift when Lua collects the function (Swift functions made at run time, one set
   per mount, would otherwise be kept by Swift for the state's life). */
static ck_release_fn releaser = NULL;
static const char release_metatable_key = 0;

void cktrampoline_set_releaser(ck_release_fn fn) { releaser = fn; }

static int release_function(lua_State *L) {
    int *id = (int *)lua_touserdata(L, 1);
    if (id != NULL && *id >= 0 && releaser != NULL) {
        int released = *id;
        *id = -1;
        releaser(L, released);
    }
    return 0;
}

void cktrampoline_push_collectable_swift_function(lua_State *L, int function_id) {
    lua_pushinteger(L, function_id);
    int *token = (int *)lua_newuserdatauv(L, sizeof(int), 0);
    *token = function_id;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &release_metatable_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "__gc");
        lua_pushcfunction(L, release_function);
        lua_rawset(L, -3);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &release_metatable_key);
    }
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, trampoline, 2);
}
