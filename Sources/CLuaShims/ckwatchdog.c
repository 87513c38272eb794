/* --timeout and Ctrl-C: an instruction-count hook that raises; and the collector calls. */
#include "ckshims.h"
#include "ckinternal.h"
#include <time.h>

static int passed(const struct timespec *deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline->tv_sec ||
           (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

static void watchdog(lua_State *L, lua_Debug *ar) {
    (void)ar;
    ck_extra *e = ck_extra_of(L);
    if (e->interrupted) {
        e->interrupted = 0;
        lua_sethook(L, e->has_deadline ? watchdog : NULL, e->has_deadline ? LUA_MASKCOUNT : 0, 1000);
        ck_raise_catalogued(L, "interrupted", 0, "stopped by Ctrl-C");
    }
    if (e->has_deadline && passed(&e->deadline)) {
        /* From now on every instruction raises, so a pcall in the script cannot go on looping. */
        lua_sethook(L, watchdog, LUA_MASKCOUNT, 1);
        ck_raise_catalogued(L, "timeout", 0, "the script ran past its time limit; find the loop that does not end, or raise --timeout");
    }
}

void ck_set_deadline(lua_State *L, double seconds) {
    ck_extra *e = ck_extra_of(L);
    clock_gettime(CLOCK_MONOTONIC, &e->deadline);
    long long ns = (long long)(seconds * 1e9);
    e->deadline.tv_sec += ns / 1000000000LL;
    e->deadline.tv_nsec += ns % 1000000000LL;
    if (e->deadline.tv_nsec >= 1000000000L) { e->deadline.tv_sec++; e->deadline.tv_nsec -= 1000000000L; }
    e->has_deadline = 1;
    lua_sethook(L, watchdog, LUA_MASKCOUNT, 1000);
}

void ck_clear_deadline(lua_State *L) {
    ck_extra *e = ck_extra_of(L);
    e->has_deadline = 0;
    lua_sethook(L, NULL, 0, 0);
}

int ck_deadline_passed(lua_State *L) {
    ck_extra *e = ck_extra_of(L);
    return e->has_deadline && passed(&e->deadline);
}

void ck_interrupt(lua_State *L) {
    ck_extra *e = ck_extra_of(L);
    e->interrupted = 1;
    lua_sethook(L, watchdog, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* lua_gc is variadic: Swift cannot call it. */
void ck_gc_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
int ck_gc_count_kb(lua_State *L) { return lua_gc(L, LUA_GCCOUNT); }

void ck_clear_interrupt(lua_State *L) {
    ck_extra *e = ck_extra_of(L);
    e->interrupted = 0;
    if (e->has_deadline) lua_sethook(L, watchdog, LUA_MASKCOUNT, 1000);
    else lua_sethook(L, NULL, 0, 0);
}
