/* Guards over the coroutine library and debug.sethook, for the watchdog and the runtime:
   - Every way Lua code runs on a coroutine (`coroutine.resume`, `wrap`'s function, `close`) tells
     the watchdog which thread runs (`running`), and `debug.sethook` puts the watchdog's hook back
     once the limit struck: a script cannot take the hook carrying --timeout and Ctrl-C off the
     thread that runs (lua5.4 keeps a hook per thread; the signal set only the main's).
   - `coroutine.resume` gives out-of-memory as `[memoryLimit] …`, as pcall does (ckguards.c).
   - `coroutine.close` nested through `__close` handlers overflows the C stack in 5.4.4 (its
     lua_resetthread counts no C call: fixed in 5.4.6's lua_closethread): when the C stack is short
     (ckcstack.c) it raises `[stackLimit]` instead, and closes as deep as lua5.4 does before that
     (a count of 100 refused chains lua5.4 closes; atk-stale 15).
   - `coroutine.yield` inside a runtime call raises `[yieldAcrossRuntime]` where it is (a pcall sees it). */
#include "ckshims.h"
#include "ckinternal.h"

/* Where ckcstack.c cannot tell the stack's size, nested closes stop at LUAI_MAXCCALLS. */
#define CK_CLOSE_DEPTH_UNKNOWN_STACK 200

/* After a script set `thread`'s hook: past the deadline or after Ctrl-C the watchdog's goes back. */
static void rearm(lua_State *L, lua_State *thread) {
    if (ckinternal_extra_of(L)->interrupted || ckwatchdog_deadline_passed(L))
        lua_sethook(thread, ckwatchdog_hook, CK_HOOK_EVERY_INSTRUCTION, 1);
}

/* The watchdog's signal hooks `co` from now on (ckwatchdog.c reads `running`), and `co` is hooked
   now if the limit struck (or Ctrl-C came) before it ran. Returns the thread to give back. */
static lua_State *follow(lua_State *L, lua_State *co) {
    ck_extra *e = ckinternal_extra_of(L);
    lua_State *previous = e->running;
    e->running = co;
    rearm(L, co);
    return previous;
}

/* The thread that resumed runs again; hooked if the limit struck while another ran (the alarm
   hooked only the innermost coroutine and the main thread). */
static void unfollow(lua_State *L, lua_State *previous) {
    ckinternal_extra_of(L)->running = previous;
    rearm(L, L);
}

/* lcorolib's refusals, raised here as lua5.4 raises them (the original, called through
   lua_pcall, named '?' and no position: atk-new 12): the caller's file:line, and
   'coroutine.close' in the argument error. */
static void refuse_close(lua_State *L, lua_State *co) {
    lua_Debug ar;
    if (co == NULL) luaL_typeerror(L, 1, "thread");
    if (co == L) luaL_error(L, "cannot close a running coroutine");
    if (lua_status(co) == LUA_OK && lua_getstack(co, 0, &ar)) luaL_error(L, "cannot close a normal coroutine");
}

static int guarded_close(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    refuse_close(L, lua_tothread(L, 1));
    size_t left, size;
    if (!ckcstack_has_room(&left, &size)) {
        lua_pushfstring(L, "coroutine.close nested too deep for the C stack (%d KB left of %d KB; from __close "
                           "handlers); close coroutines one after another", (int)(left / 1024), (int)(size / 1024));
        return cktrampoline_raise_catalogued(L, "stackLimit", 1, lua_tostring(L, -1));
    }
    if (size == 0 && e->close_depth >= CK_CLOSE_DEPTH_UNKNOWN_STACK)   /* a thread whose stack is unknown */
        return cktrampoline_raise_catalogued(L, "stackLimit", 1,
            "coroutine.close nested more than 200 deep (from __close handlers) on a thread whose C stack size is unknown; close coroutines one after another");
    e->close_depth++;
    lua_State *co = lua_tothread(L, 1);   /* its __close handlers run on it */
    lua_State *previous = co != NULL ? follow(L, co) : NULL;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    if (co != NULL) unfollow(L, previous);
    e->close_depth--;
    if (status != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

/* lcorolib's auxresume, with the watchdog following `co` while it runs: the `narg` values on top
   go to `co`; returns how many values it gave back (moved on top), or -1 with its error on top (a
   memory error past the limit as `[memoryLimit] …`). lua_resume raises nothing, so the running
   thread is always given back; called straight from the C function Lua called, a nested resume
   counts one C level, as lua5.4's does (through a protected call it counted two: 99 nested
   coroutines where lua5.4 runs 197). */
static int resume_followed(lua_State *L, lua_State *co, int narg) {
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_State *previous = follow(L, co);
    lua_xmove(L, co, narg);
    int nres, status = lua_resume(co, L, narg, &nres);
    unfollow(L, previous);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    lua_xmove(co, L, 1);
    if (ckalloc_is_limit_error(L, status)) ckalloc_catalogue_error(L);
    return -1;
}

static int guarded_resume(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    if (co == NULL) luaL_typeerror(L, 1, "coroutine");   /* named as lua5.4 names it */
    int n = resume_followed(L, co, lua_gettop(L) - 1);
    lua_pushboolean(L, n >= 0);
    lua_insert(L, n >= 0 ? -(n + 1) : -2);
    return n >= 0 ? n + 1 : 2;
}

/* Whether the string on top is a catalogued error ("[id] …"), which names its place after the id. */
static int is_catalogued(lua_State *L) {
    const char *s = lua_tostring(L, -1);
    if (s[0] != '[') return 0;
    size_t n = 1;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z')) n++;
    return n > 1 && s[n] == ']' && s[n + 1] == ' ';
}

/* The function coroutine.wrap returns (upvalue: the coroutine). As lua5.4's: the values the
   coroutine gives, or its error raised again; a coroutine that died of it is closed first (its
   pending to-be-closed variables), and a string error gets the caller's file:line, except a
   catalogued one: its id stays first (it names its place already). */
static int wrapped_coroutine(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int n = resume_followed(L, co, lua_gettop(L));
    if (n >= 0) return n;
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_State *previous = follow(L, co);
        status = lua_resetthread(co);
        unfollow(L, previous);
        lua_xmove(co, L, 1);
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING && !is_catalogued(L)) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/* coroutine.wrap: lcorolib's, making the coroutine as its `create` does. */
static int guarded_wrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, wrapped_coroutine, 1);
    return 1;
}

/* Whether a runtime call is on this thread's stack: a Swift function's trampoline, or the send
   path's C function, which run Lua again where no yield crosses. */
static int runtime_on_stack(lua_State *L) {
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "f", &ar)) continue;
        int runtime = cktrampoline_swift_function_id(L, -1) >= 0 || cksend_is_send(L, -1);
        lua_pop(L, 1);
        if (runtime) return 1;
    }
    return 0;
}

/* coroutine.yield: lua5.4's, but a yield that a runtime call on the coroutine's stack blocks is
   `[yieldAcrossRuntime]` at the script's line, caught by a pcall too (which got Lua's bare
   "attempt to yield across a C-call boundary": no id, no line, no way out). */
static int guarded_yield(lua_State *L) {
    if (!lua_isyieldable(L)) {
        int main_thread = lua_pushthread(L);
        lua_pop(L, 1);
        if (!main_thread && runtime_on_stack(L)) {
            ckwhere_script(L);
            lua_pushfstring(L, "[yieldAcrossRuntime] %s%s", lua_tostring(L, -1), CK_YIELD_ACROSS_RUNTIME);
            return lua_error(L);
        }
    }
    return lua_yield(L, lua_gettop(L));
}

/* debug.sethook: lua5.4's, then the watchdog's hook back on the thread if the limit struck (or
   Ctrl-C came) before or while it ran. Called directly: its errors name it as lua5.4's do. */
static int guarded_sethook(lua_State *L) {
    lua_State *thread = lua_isthread(L, 1) ? lua_tothread(L, 1) : L;
    lua_CFunction sethook = lua_tocfunction(L, lua_upvalueindex(1));
    int results = sethook(L);
    rearm(L, thread);
    return results;
}

static void replace(lua_State *L, int table, const char *name, lua_CFunction fn, int wraps_original) {
    lua_pushstring(L, name);
    if (wraps_original) {
        lua_pushvalue(L, -1);
        lua_rawget(L, table);
        lua_pushcclosure(L, fn, 1);
    } else {
        lua_pushcfunction(L, fn);
    }
    lua_rawset(L, table);
}

void ckthreads_install(lua_State *L, int table) {
    replace(L, table, "wrap", guarded_wrap, 0);
    replace(L, table, "yield", guarded_yield, 0);
    replace(L, table, "close", guarded_close, 1);
    replace(L, table, "resume", guarded_resume, 0);
}

void ckthreads_install_sethook(lua_State *L, int table) {
    lua_pushliteral(L, "sethook");
    int type = lua_rawget(L, table);
    lua_pop(L, 1);
    if (type == LUA_TFUNCTION) replace(L, table, "sethook", guarded_sethook, 1);
}
