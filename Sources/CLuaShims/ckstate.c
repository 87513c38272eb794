/* A state's life: made with the counting allocator and a block shared by all its threads. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdio.h>
#include <stdlib.h>

static int ck_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "%s: unprotected Lua error (a bug in ckrun): %s\n", cklastresort_program(), msg ? msg : "?");
    abort();
}

lua_State *ckstate_new(ck_memory *memory, int pooled) {
    memory->pool = pooled && memory->limit == 0 ? ckpool_new() : NULL;
    lua_State *L = lua_newstate(ckalloc, memory);
    if (L == NULL) {
        ckpool_free(memory->pool);
        memory->pool = NULL;
        return NULL;
    }
    ck_extra *e = calloc(1, sizeof(ck_extra));
    e->memory = memory;
    e->current = L;
    memory->extra = e;
    *(ck_extra **)lua_getextraspace(L) = e;
    lua_atpanic(L, ck_panic);
    ckpcall_clear_error_value(L);   /* its registry slots exist from now on */
    return L;
}

void ckstate_close(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    ck_memory *memory = e->memory;
    /* A finalizer that never returns would hold lua_close forever. Lua runs finalizers with
       hooks off, so nothing can raise there: under a time limit the process ends with
       [timeout] (the alarm's second tick), as when a C function overruns. */
    ckclibs_pin(L);
    if (e->close_seconds > 0 && !ckwatchdog_busy(L)) {
        ckwatchdog_closing(L);
        ckwatchdog_set_deadline(L, e->close_seconds);
    }
    e->closing = 1;
    lua_close(L);
    ckwarn_release(e);   /* the extra block outlives the state */
    ckrunner_records_free(e);
    ckwatchdog_forget(L);
    ckpool_free(memory->pool);
    memory->pool = NULL;
    memory->extra = NULL;
    free(e);
}

ck_memory *ckstate_memory_of(lua_State *L) { return ckinternal_extra_of(L)->memory; }
void ckstate_set_close_limit(lua_State *L, double seconds) { ckinternal_extra_of(L)->close_seconds = seconds; }
void ckstate_set_owner(lua_State *L, void *owner) { ckinternal_extra_of(L)->owner = owner; }
void *ckstate_get_owner(lua_State *L) { return ckinternal_extra_of(L)->owner; }
lua_State **ckstate_current_thread(lua_State *L) { return &ckinternal_extra_of(L)->current; }

void ckstate_enter_swift(lua_State *L, ck_swift_frame *frame) {
    ck_extra *e = ckinternal_extra_of(L);
    frame->thread = e->current;
    frame->in_swift = e->memory->in_swift;
    e->current = L;
    e->memory->in_swift++;
}

void ckstate_leave_swift(lua_State *L, const ck_swift_frame *frame) {
    ck_extra *e = ckinternal_extra_of(L);
    e->current = frame->thread;
    e->memory->in_swift = frame->in_swift;
}

/* lua_gc is variadic: Swift cannot call it. */
void ckstate_gc_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
int ckstate_gc_count_kb(lua_State *L) { return lua_gc(L, LUA_GCCOUNT); }
void ckstate_gc_generational(lua_State *L) { lua_gc(L, LUA_GCGEN, 0, 0); }
void ckstate_gc_incremental(lua_State *L) { lua_gc(L, LUA_GCINC, 0, 0, 0); }
/* Memory Lua does not see (Swift objects its finalizers free) paced as if Lua had allocated it;
   nothing while the script has stopped the collector (a step would restart it for its length). */
void ckstate_gc_debt_kb(lua_State *L, int kb) {
    if (kb > 0 && lua_gc(L, LUA_GCISRUNNING)) lua_gc(L, LUA_GCSTEP, kb);
}

/* For Swift work loops (WorkLimits): a Ctrl-C in the turn running, raised in Lua or not yet. */
int ckstate_interrupt_pending(lua_State *L) { return ckinternal_extra_of(L)->interrupted != 0; }
