#include "ckshims.h"
#include "ckinternal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>

int ck_registryindex(void) { return LUA_REGISTRYINDEX; }
int ck_upvalueindex(int i) { return lua_upvalueindex(i); }
void ck_pop(lua_State *L, int n) { lua_pop(L, n); }
void ck_newtable(lua_State *L) { lua_newtable(L); }
void ck_remove(lua_State *L, int idx) { lua_remove(L, idx); }
void ck_insert(lua_State *L, int idx) { lua_insert(L, idx); }
void ck_replace(lua_State *L, int idx) { lua_replace(L, idx); }
const char *ck_tostring(lua_State *L, int idx, size_t *len) { return lua_tolstring(L, idx, len); }
int ck_isnoneornil(lua_State *L, int idx) { return lua_isnoneornil(L, idx); }
int ck_mainthreadindex(void) { return LUA_RIDX_MAINTHREAD; }
int ck_rawgetfield(lua_State *L, int idx, const char *k) {
    idx = lua_absindex(L, idx);
    lua_pushstring(L, k);
    return lua_rawget(L, idx);
}

/* A literal's one address hits Lua's string cache: no hashing per component. */
int ck_rawgetkey(lua_State *L, int idx) { return ck_rawgetfield(L, idx, "key"); }

/* ---- allocator ---- */

static void *ck_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    ck_memory *m = (ck_memory *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        m->used -= old;
        return NULL;
    }
    if (m->limit && nsize > old && m->used - old + nsize > m->limit) {
        if (m->in_host == 0) return NULL;   /* Lua raises LUA_ERRMEM from C */
        m->exceeded = 1;                    /* raised by the trampoline later */
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) return NULL;
    m->used = m->used - old + nsize;
    if (m->used > m->peak) m->peak = m->used;
    return p;
}

/* The extra space holds a pointer to this block, shared by every thread of the state. */
typedef struct ck_extra {
    void *host;
    ck_memory *memory;
    volatile sig_atomic_t interrupted;
    int has_deadline;
    struct timespec deadline;
} ck_extra;

static ck_extra *extra_of(lua_State *L) { return *(ck_extra **)lua_getextraspace(L); }

static int ck_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "ckrun: unprotected Lua error (a bug in ckrun): %s\n", msg ? msg : "?");
    abort();
}

lua_State *ck_newstate(ck_memory *memory) {
    lua_State *L = lua_newstate(ck_alloc, memory);
    if (L == NULL) return NULL;
    ck_extra *e = calloc(1, sizeof(ck_extra));
    e->memory = memory;
    *(ck_extra **)lua_getextraspace(L) = e;
    lua_atpanic(L, ck_panic);
    return L;
}

void ck_closestate(lua_State *L) {
    ck_extra *e = extra_of(L);
    lua_close(L);
    free(e);
}

ck_memory *ck_memory_of(lua_State *L) { return extra_of(L)->memory; }
void ck_set_host(lua_State *L, void *host) { extra_of(L)->host = host; }
void *ck_get_host(lua_State *L) { return extra_of(L)->host; }

/* ---- trampoline ---- */

static ck_dispatch_fn dispatcher = NULL;

void ck_set_dispatcher(ck_dispatch_fn fn) { dispatcher = fn; }

/* Raises "[id] where: detail": the id first, as every ckrun error. */
static int raise_catalogued(lua_State *L, const char *id, int level, const char *detail) {
    lua_pushfstring(L, "[%s] ", id);
    luaL_where(L, level);
    lua_pushstring(L, detail);
    lua_concat(L, 3);
    return lua_error(L);
}

static int raise_memory_overshoot(lua_State *L) {
    ck_memory *m = ck_memory_of(L);
    m->exceeded = 0;
    return raise_catalogued(L, "memoryLimit", 1,
                            "the script used more than its memory limit; raise --memory-limit or use less memory");
}

int ck_call_host(lua_State *L, int id) {
    ck_memory *m = ck_memory_of(L);
    m->in_host++;
    int n = dispatcher(L, id);
    m->in_host--;
    if (n == CK_RAISE) return lua_error(L);
    if (m->exceeded && m->in_host == 0) return raise_memory_overshoot(L);
    return n;
}

static int trampoline(lua_State *L) {
    return ck_call_host(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
}

void ck_push_hostfunction(lua_State *L, int function_id) {
    lua_pushinteger(L, function_id);
    lua_pushcclosure(L, trampoline, 1);
}

int ck_hostfunction_id(lua_State *L, int idx) {
    if (lua_tocfunction(L, idx) != trampoline) return -1;
    if (lua_getupvalue(L, idx, 1) == NULL) return -1;
    int id = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return id;
}

/* ---- protected calls ---- */

int ck_traceback(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Lua code called back from Swift may fail to allocate again: host mode is suspended for it. */
int ck_pcall_at(lua_State *L, int nargs, int nresults, int msgh) {
    ck_memory *m = ck_memory_of(L);
    int saved = m->in_host;
    m->in_host = 0;
    int status = lua_pcall(L, nargs, nresults, msgh);
    m->in_host = saved;
    return status;
}

int ck_pcall(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, ck_traceback);
    lua_insert(L, base);
    int status = ck_pcall_at(L, nargs, nresults, base);
    lua_remove(L, base);
    return status;
}

int ck_loadbuffer(lua_State *L, const char *buf, size_t len, const char *name, const char *mode) {
    return luaL_loadbufferx(L, buf, len, name, mode);
}

static int openlibs_k(lua_State *L) { luaL_openlibs(L); return 0; }

int ck_openlibs(lua_State *L) {
    lua_pushcfunction(L, openlibs_k);
    return lua_pcall(L, 0, 0, 0);
}

static int gettable_k(lua_State *L) { lua_gettable(L, 1); return 1; }
static int settable_k(lua_State *L) { lua_settable(L, 1); return 0; }
static int tostring_k(lua_State *L) { luaL_tolstring(L, 1, NULL); return 1; }
static int equal_k(lua_State *L) { lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPEQ)); return 1; }

int ck_safe_gettable(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, gettable_k);
    lua_pushvalue(L, idx);            /* ... key fn t */
    lua_rotate(L, -3, 2);             /* ... fn t key */
    return lua_pcall(L, 2, 1, 0);
}

int ck_safe_getfield(lua_State *L, int idx, const char *k) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, gettable_k);
    lua_pushvalue(L, idx);
    lua_pushstring(L, k);
    return lua_pcall(L, 2, 1, 0);
}

int ck_safe_settable(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);       /* stack: ... key value */
    lua_pushcfunction(L, settable_k);
    lua_pushvalue(L, idx);            /* ... key value fn t */
    lua_rotate(L, -4, 2);             /* ... fn t key value */
    return lua_pcall(L, 3, 0, 0);
}

int ck_safe_tostring(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, tostring_k);
    lua_pushvalue(L, idx);
    return lua_pcall(L, 1, 1, 0);
}

int ck_safe_equal(lua_State *L, int a, int b, int *result) {
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    lua_pushcfunction(L, equal_k);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    int status = lua_pcall(L, 2, 1, 0);
    if (status == LUA_OK) {
        *result = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    return status;
}

/* ---- watchdog ---- */

static int passed(const struct timespec *deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline->tv_sec ||
           (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

static void watchdog(lua_State *L, lua_Debug *ar) {
    (void)ar;
    ck_extra *e = extra_of(L);
    if (e->interrupted) {
        e->interrupted = 0;
        lua_sethook(L, e->has_deadline ? watchdog : NULL, e->has_deadline ? LUA_MASKCOUNT : 0, 1000);
        raise_catalogued(L, "interrupted", 0, "stopped by Ctrl-C");
    }
    if (e->has_deadline && passed(&e->deadline)) {
        /* From now on every instruction raises, so a pcall in the script cannot go on looping. */
        lua_sethook(L, watchdog, LUA_MASKCOUNT, 1);
        raise_catalogued(L, "timeout", 0, "the script ran past its time limit; find the loop that does not end, or raise --timeout");
    }
}

void ck_set_deadline(lua_State *L, double seconds) {
    ck_extra *e = extra_of(L);
    clock_gettime(CLOCK_MONOTONIC, &e->deadline);
    long long ns = (long long)(seconds * 1e9);
    e->deadline.tv_sec += ns / 1000000000LL;
    e->deadline.tv_nsec += ns % 1000000000LL;
    if (e->deadline.tv_nsec >= 1000000000L) { e->deadline.tv_sec++; e->deadline.tv_nsec -= 1000000000L; }
    e->has_deadline = 1;
    lua_sethook(L, watchdog, LUA_MASKCOUNT, 1000);
}

void ck_clear_deadline(lua_State *L) {
    ck_extra *e = extra_of(L);
    e->has_deadline = 0;
    lua_sethook(L, NULL, 0, 0);
}

int ck_deadline_passed(lua_State *L) {
    ck_extra *e = extra_of(L);
    return e->has_deadline && passed(&e->deadline);
}

void ck_interrupt(lua_State *L) {
    ck_extra *e = extra_of(L);
    e->interrupted = 1;
    lua_sethook(L, watchdog, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* lua_gc is variadic: Swift cannot call it. */
void ck_gc_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
int ck_gc_count_kb(lua_State *L) { return lua_gc(L, LUA_GCCOUNT); }

/* ---- warnings ---- */

/* Lua's warnings arrive in pieces; whole messages go to the host. Finalizer errors are always
   reported; messages from the script's warn() only after warn("@on"), as in lua.c. */
static ck_warning_fn warning_handler = NULL;
static char warn_buffer[2048];
static size_t warn_length = 0;
static int warn_on = 0;

static void ck_warnf(void *ud, const char *message, int tocont) {
    lua_State *L = (lua_State *)ud;
    if (warn_length == 0 && !tocont && message[0] == '@') {
        if (strcmp(message, "@on") == 0) warn_on = 1;
        else if (strcmp(message, "@off") == 0) warn_on = 0;
        return;
    }
    size_t n = strlen(message);
    if (warn_length + n >= sizeof(warn_buffer)) n = sizeof(warn_buffer) - warn_length - 1;
    memcpy(warn_buffer + warn_length, message, n);
    warn_length += n;
    warn_buffer[warn_length] = '\0';
    if (tocont) return;
    int is_gc = strncmp(warn_buffer, "error in ", 9) == 0;
    if (warning_handler && (is_gc || warn_on)) warning_handler(L, warn_buffer, is_gc);
    warn_length = 0;
}

void ck_set_warning_handler(lua_State *L, ck_warning_fn fn) {
    warning_handler = fn;
    lua_setwarnf(L, ck_warnf, L);
}

/* ---- diagnostics ---- */
#include <malloc.h>
/* Allocated bytes in the heap and in mmap()ed chunks (large blocks are mapped, not in uordblks). */
size_t ck_heap_bytes(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

void ck_clear_interrupt(lua_State *L) {
    ck_extra *e = extra_of(L);
    e->interrupted = 0;
    if (e->has_deadline) lua_sethook(L, watchdog, LUA_MASKCOUNT, 1000);
    else lua_sethook(L, NULL, 0, 0);
}
