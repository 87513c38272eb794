#include "cksend.h"
#include "ckshims.h"
#include "ckinternal.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

void cksend_push_weak_values_metatable(lua_State *L) {
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
}

void cksend_store_plan(lua_State *L, int action, const ck_plan *plan, const ck_send_hooks *hooks) {
    action = lua_absindex(L, action);
    /* A plan the action already has is reused: walks that alternate senders allocate nothing. */
    if (lua_getiuservalue(L, action, 1) == LUA_TUSERDATA && ckshims_userdata_bytes(L, -1) == sizeof(ck_plan) &&
        ((ck_plan *)lua_touserdata(L, -1))->owner == hooks) {
        memcpy(lua_touserdata(L, -1), plan, sizeof(ck_plan));
        lua_getiuservalue(L, -1, 1);     /* handler receiver sender plan values */
        lua_insert(L, -5);
        lua_pop(L, 1);                   /* values handler receiver sender */
        lua_rawseti(L, -4, 3);
        lua_rawseti(L, -3, 2);
        lua_rawseti(L, -2, 1);
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_createtable(L, 3, 0);            /* handler receiver sender values */
    lua_rawgeti(L, LUA_REGISTRYINDEX, hooks->weak_values);
    lua_setmetatable(L, -2);
    lua_insert(L, -4);                   /* values handler receiver sender */
    lua_rawseti(L, -4, 3);
    lua_rawseti(L, -3, 2);
    lua_rawseti(L, -2, 1);
    ck_plan *p = (ck_plan *)lua_newuserdatauv(L, sizeof(ck_plan), 1);
    memcpy(p, plan, sizeof(ck_plan));
    lua_insert(L, -2);
    lua_setiuservalue(L, -2, 1);
    lua_setiuservalue(L, action, 1);
}

/* A sender the full path would accept: nil, a table, or a live component, controller or view
   handle (the checks ObjectRegistry.handle makes). */
static int is_responder(lua_State *L, int idx, const ck_send_hooks *hooks) {
    switch (lua_type(L, idx)) {
    case LUA_TNIL: case LUA_TNONE: case LUA_TTABLE: return 1;
    case LUA_TUSERDATA: break;
    default: return 0;
    }
    if (ckshims_userdata_bytes(L, idx) != CK_HANDLE_SIZE || !lua_getmetatable(L, idx)) return 0;
    const void *mt = lua_topointer(L, -1);
    lua_pop(L, 1);
    const int32_t *handle = (const int32_t *)lua_touserdata(L, idx);   /* slot (0 or less: collected), kind */
    for (int i = 0; i < 3; i++) {
        if (mt == hooks->responder_metatables[i]) return handle[0] > 0 && handle[1] == hooks->responder_kinds[i];
    }
    return 0;
}

/* An argument checked and converted as the full path's TypeSpec.conform does. */
typedef struct ck_arg {
    unsigned char kind;      /* 0: the Lua value itself, 1: nil, 2: `i`, 3: `d` */
    lua_Integer i;
    lua_Number d;
} ck_arg;

/* Checks the argument at `idx` (0: missing, read as nil) against `type`; 0 if it does not conform. */
static int conform(lua_State *L, int idx, unsigned char type, ck_arg *out) {
    out->kind = 0;
    /* The common case first, in one API call: an integer where an int or a number is wanted. */
    if (idx && (type == CK_ARG_INT || type == CK_ARG_NUMBER) && lua_isinteger(L, idx)) {
        if (type == CK_ARG_NUMBER) {
            out->kind = 3;
            out->d = (lua_Number)lua_tointegerx(L, idx, NULL);
        }
        return 1;
    }
    int t = idx ? lua_type(L, idx) : LUA_TNIL;
    if (t == LUA_TNIL) {
        out->kind = 1;
        return type != CK_ARG_BOOL && type != CK_ARG_INT && type != CK_ARG_NUMBER;
    }
    switch (type) {
    case CK_ARG_ANY: return 1;
    case CK_ARG_BOOL: return t == LUA_TBOOLEAN;
    case CK_ARG_INT: {
        int exact = 0;
        if (t != LUA_TNUMBER) return 0;   /* not an integer (checked above) */
        out->kind = 2;
        out->i = lua_tointegerx(L, idx, &exact);   /* a float with an integral value */
        return exact;
    }
    case CK_ARG_NUMBER:
        return t == LUA_TNUMBER;          /* a float (integers were converted above) */
    case CK_ARG_STRING: return t == LUA_TSTRING;
    case CK_ARG_TABLE: return t == LUA_TTABLE || (t == LUA_TUSERDATA && ckprops_is_view(L, idx));
    case CK_ARG_FUNCTION: return t == LUA_TFUNCTION;
    default: return 0;
    }
}

static void push_arg(lua_State *L, int idx, const ck_arg *arg) {
    switch (arg->kind) {
    case 1: lua_pushnil(L); break;
    case 2: lua_pushinteger(L, arg->i); break;
    case 3: lua_pushnumber(L, arg->d); break;
    default: lua_pushvalue(L, idx); break;
    }
}

static void push_zero(lua_State *L, unsigned char type) {
    switch (type) {
    case CK_ARG_BOOL: lua_pushboolean(L, 0); break;
    case CK_ARG_INT: lua_pushinteger(L, 0); break;
    case CK_ARG_NUMBER: lua_pushnumber(L, 0); break;
    default: lua_pushnil(L); break;
    }
}

/* The plan usable for this call, with the plan and its values table pushed and the arguments
   checked into `args`, or NULL. */
static ck_plan *usable_plan(lua_State *L, const ck_send_hooks *hooks, int given, ck_arg *args) {
    ck_callstate *state = hooks->state;
    if (state->tracing || state->changing || state->owner_thread != (intptr_t)pthread_self()) return NULL;
    if (lua_type(L, 1) != LUA_TUSERDATA || lua_getiuservalue(L, 1, 1) != LUA_TUSERDATA) return NULL;
    ck_plan *p = (ck_plan *)lua_touserdata(L, -1);
    if (ckshims_userdata_bytes(L, -1) != sizeof(ck_plan) || p->owner != hooks || p->epoch != state->epoch ||
        given > p->ntypes || (lua_type(L, 2) != LUA_TNIL && !is_responder(L, 2, hooks))) return NULL;
    for (int i = 0; i < p->ntypes; i++) {
        if (!conform(L, i < given ? 3 + i : 0, p->types[i], &args[i])) return NULL;
    }
    /* plan, values, message handler, handler, receiver, sender, arguments, one temporary */
    if (p->nfull + 7 > LUA_MINSTACK && !lua_checkstack(L, p->nfull + 7)) return NULL;
    lua_getiuservalue(L, -1, 1);
    if (p->check_sender) {
        lua_rawgeti(L, -1, 3);
        int same = lua_rawequal(L, -1, 2);
        lua_pop(L, 1);
        if (!same) return NULL;
    }
    return p;
}

static int traceback(lua_State *L) { return ckpcall_traceback(L); }

/* The sender, then the converted arguments, then the demoted positions' zeros: how many. */
static inline int push_planned_args(lua_State *L, const ck_plan *p, const ck_arg *args) {
    int n = p->passed;
    if (n > 0) lua_pushvalue(L, 2);
    for (int i = 0; i + 1 < n; i++) {
        if (i < p->ntypes) push_arg(L, 3 + i, &args[i]);
        else push_zero(L, p->types[i]);
    }
    return n;
}

/* Calls the planned handler (its `nargs` on the stack above the message handler at `msgh`)
   and ends the send as the full path would: a failure and a sync update go to Swift. */
static inline int call_planned(lua_State *L, const ck_send_hooks *hooks, int nargs, int msgh, int base) {
    ck_callstate *state = hooks->state;
    state->planned_sends++;
    state->depth++;
    intptr_t call = ++state->entered;    /* as Runtime.enterCall: what a rollback drops back to */
    /* As ckpcall_at: the handler may fail to allocate even inside Swift-run Lua (__tostring). */
    int saved = hooks->memory->in_swift;
    hooks->memory->in_swift = 0;
    int status = lua_pcall(L, nargs, 0, msgh);
    hooks->memory->in_swift = saved;
    if (status != LUA_OK) {
        lua_pushinteger(L, call);
        lua_pushinteger(L, status);      /* error status: the full path's failure handling */
        return cktrampoline_call_swift(L, hooks->abandon);
    }
    if (state->depth == 1 && state->sync_requested) {
        lua_settop(L, base);
        lua_pushinteger(L, call);
        cktrampoline_call_swift(L, hooks->leave);
    } else {
        state->depth--;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* action:send(sender, ...) */
static int send(lua_State *L) {
    const ck_send_hooks *hooks = (const ck_send_hooks *)lua_touserdata(L, lua_upvalueindex(1));
    int base = lua_gettop(L);
    if (base < 2) {                            /* a missing sender is nil */
        lua_settop(L, 2);
        base = 2;
    }
    int given = base - 2;                      /* arguments after the sender */
    ck_arg args[CK_PLAN_MAX_TYPES];
    ck_plan *p = usable_plan(L, hooks, given, args);
    int values = base + 2, msgh = base + 3;
    if (p != NULL) {
        lua_pushcfunction(L, traceback);
        /* The handler and receiver, if not collected since the plan was made. */
        if (lua_rawgeti(L, values, 1) != LUA_TFUNCTION || (p->has_receiver && lua_rawgeti(L, values, 2) == LUA_TNIL))
            p = NULL;
    }
    if (p == NULL) {
        lua_settop(L, base);
        return cktrampoline_call_swift(L, hooks->send);
    }
    ckinternal_check_call_depth(L, hooks->state->depth);   /* a handler that sends, nested: [stackLimit] */
    int n = push_planned_args(L, p, args);
    return call_planned(L, hooks, n + p->has_receiver, msgh, base);
}

int cksend_is_send(lua_State *L, int idx) { return lua_tocfunction(L, idx) == send; }

void cksend_push(lua_State *L, const ck_send_hooks *hooks) {
    lua_pushlightuserdata(L, (void *)hooks);
    lua_pushcclosure(L, send, 1);
}
