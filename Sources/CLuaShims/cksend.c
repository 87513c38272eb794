#include "cksend.h"
#include "ckshims.h"
#include "ckinternal.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

void ck_store_plan(lua_State *L, int action, const ck_plan *plan) {
    action = lua_absindex(L, action);
    ck_plan *p = (ck_plan *)lua_newuserdatauv(L, sizeof(ck_plan), 3);
    memcpy(p, plan, sizeof(ck_plan));
    lua_insert(L, -4);                   /* plan handler receiver sender */
    lua_setiuservalue(L, -4, 3);
    lua_setiuservalue(L, -3, 2);
    lua_setiuservalue(L, -2, 1);
    lua_setiuservalue(L, action, 1);
}

/* A sender the full path would accept: nil, a table, or a live component, controller or view. */
static int is_responder(lua_State *L, int idx, const ck_send_hooks *hooks) {
    switch (lua_type(L, idx)) {
    case LUA_TNIL: case LUA_TNONE: case LUA_TTABLE: return 1;
    case LUA_TUSERDATA: break;
    default: return 0;
    }
    if (!lua_getmetatable(L, idx)) return 0;
    const void *mt = lua_topointer(L, -1);
    lua_pop(L, 1);
    if (mt != hooks->responder_metatables[0] && mt != hooks->responder_metatables[1] &&
        mt != hooks->responder_metatables[2]) return 0;
    const int32_t *slot = (const int32_t *)lua_touserdata(L, idx);   /* a handle: slot 0 is dead */
    return *slot != 0;
}

/* Whether the argument at `idx` (0: missing, read as nil) conforms to `type` as the full
   path's conversion says. */
static int conforms(lua_State *L, int idx, unsigned char type) {
    int t = idx ? lua_type(L, idx) : LUA_TNIL;
    switch (type) {
    case CK_ARG_ANY: return 1;
    case CK_ARG_BOOL: return t == LUA_TBOOLEAN;
    case CK_ARG_INT:
        if (lua_isinteger(L, idx)) return 1;
        if (t == LUA_TNUMBER) {
            lua_Integer i;
            lua_Number d = lua_tonumber(L, idx);
            return d == floor(d) && lua_numbertointeger(d, &i);
        }
        return 0;
    case CK_ARG_NUMBER: return t == LUA_TNUMBER;
    case CK_ARG_STRING: return t == LUA_TSTRING || t <= LUA_TNIL;
    case CK_ARG_TABLE: return t == LUA_TTABLE || t <= LUA_TNIL;
    case CK_ARG_FUNCTION: return t == LUA_TFUNCTION || t <= LUA_TNIL;
    default: return 0;
    }
}

/* Pushes the argument at `idx` (0: missing) converted: integral floats to int, numbers to float. */
static void push_converted(lua_State *L, int idx, unsigned char type) {
    if (idx == 0) {
        lua_pushnil(L);
    } else if (type == CK_ARG_INT && !lua_isinteger(L, idx)) {
        lua_Integer i = 0;
        lua_numbertointeger(lua_tonumber(L, idx), &i);
        lua_pushinteger(L, i);
    } else if (type == CK_ARG_NUMBER) {
        lua_pushnumber(L, lua_tonumber(L, idx));
    } else {
        lua_pushvalue(L, idx);
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

/* The usable plan for this call, left on top of the stack, or NULL (nothing pushed). */
static ck_plan *usable_plan(lua_State *L, const ck_send_hooks *hooks, int given) {
    ck_callstate *state = hooks->state;
    if (state->tracing || state->owner_thread != (intptr_t)pthread_self()) return NULL;
    if (lua_type(L, 1) != LUA_TUSERDATA) return NULL;
    if (lua_getiuservalue(L, 1, 1) != LUA_TUSERDATA) { lua_pop(L, 1); return NULL; }
    ck_plan *p = (ck_plan *)lua_touserdata(L, -1);
    int ok = lua_rawlen(L, -1) == sizeof(ck_plan) && p->owner == hooks && p->epoch == state->epoch &&
             given <= p->ntypes && is_responder(L, 2, hooks);
    if (ok && p->check_sender) {
        lua_getiuservalue(L, -1, 3);
        ok = lua_rawequal(L, -1, 2);
        lua_pop(L, 1);
    }
    for (int i = 0; ok && i < p->ntypes; i++) ok = conforms(L, i < given ? 3 + i : 0, p->types[i]);
    /* plan, handler, message handler, receiver, sender, arguments, one temporary */
    if (ok && p->nfull + 6 > LUA_MINSTACK) ok = lua_checkstack(L, p->nfull + 6);
    if (!ok) { lua_pop(L, 1); return NULL; }
    return p;
}

static int traceback(lua_State *L) { return ck_traceback(L); }

/* action:send(sender, ...) */
static int send(lua_State *L) {
    const ck_send_hooks *hooks = (const ck_send_hooks *)lua_touserdata(L, lua_upvalueindex(1));
    if (lua_gettop(L) < 2) lua_settop(L, 2);   /* a missing sender is nil */
    int plan = lua_gettop(L) + 1;
    int given = plan - 3;                      /* arguments after the sender */
    ck_plan *p = usable_plan(L, hooks, given);
    if (p == NULL) return ck_call_host(L, hooks->send);
    lua_pushcfunction(L, traceback);
    int msgh = plan + 1;
    lua_getiuservalue(L, plan, 1);
    if (p->has_receiver) lua_getiuservalue(L, plan, 2);
    /* The sender, then the converted arguments, then the demoted positions' zeros. */
    int n = p->passed;
    if (n > 0) lua_pushvalue(L, 2);
    for (int i = 0; i + 1 < n; i++) {
        if (i < p->ntypes) push_converted(L, i < given ? 3 + i : 0, p->types[i]);
        else push_zero(L, p->types[i]);
    }
    ck_callstate *state = hooks->state;
    state->planned_sends++;
    state->depth++;
    int status = lua_pcall(L, n + p->has_receiver, 0, msgh);
    if (status != LUA_OK) {
        lua_pushinteger(L, status);      /* error status: the full path's failure handling */
        return ck_call_host(L, hooks->abandon);
    }
    if (state->depth == 1 && state->sync_requested) {
        lua_settop(L, plan - 1);
        ck_call_host(L, hooks->leave);
    } else {
        state->depth--;
    }
    lua_pushboolean(L, 1);
    return 1;
}

void ck_push_send(lua_State *L, const ck_send_hooks *hooks) {
    lua_pushlightuserdata(L, (void *)hooks);
    lua_pushcclosure(L, send, 1);
}
