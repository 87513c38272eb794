/* ckrun test's own C: the results of a file's tests kept outside the Lua heap (no test can name,
   rewrite or starve them), in the one escaper of the runner's record format, and the runner's
   turns: user code and the runner's own code each run under a time limit, the runner's with a
   memory reserve, so a test that leaves its state at the memory limit cannot stop the
   bookkeeping that reports it; and the runner's clock. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* What the runner's own code may allocate past --memory-limit: its bookkeeping between tests
   and the message handler (a test's memory is still held while its error is described). */
#define RUNNER_RESERVE ((size_t)1 << 20)

enum { ESCAPE = 0x1D, RECORD_END = 0x1E, FIELD_END = 0x1F };

/* ResultRecords' fields: 0x1D escapes 0x1D, 0x1E, 0x1F and a newline ('1'..'4'); each field
   ends with 0x1F. `out` holds at least 2 * n + 1 bytes; returns the bytes written. */
size_t ckrunner_escape_field(const char *s, size_t n, unsigned char *out) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case ESCAPE: out[k++] = ESCAPE; out[k++] = '1'; break;
        case RECORD_END: out[k++] = ESCAPE; out[k++] = '2'; break;
        case FIELD_END: out[k++] = ESCAPE; out[k++] = '3'; break;
        case '\n': out[k++] = ESCAPE; out[k++] = '4'; break;
        default: out[k++] = c;
        }
    }
    out[k++] = FIELD_END;
    return k;
}

/* Room for `n` more bytes; the buffer's growth is counted against the state's memory (it never
   fails for the limit: what passes it stops the next allocation of Lua code instead). A buffer
   outgrown is retired, not freed: a reader on another thread may be copying it (ck_records). */
static unsigned char *room(ck_extra *e, size_t n) {
    ck_records *r = &e->records;
    if (r->length + n > r->capacity) {
        size_t capacity = r->capacity ? r->capacity : 4096;
        while (capacity < r->length + n) capacity *= 2;
        unsigned char *bytes = malloc(capacity), *old = r->bytes;
        if (bytes == NULL || (old != NULL && r->retired_count == CK_RECORDS_RETIRED)) { free(bytes); return NULL; }
        if (r->length) memcpy(bytes, old, r->length);
        atomic_store_explicit(&r->bytes, bytes, memory_order_release);
        if (old != NULL) {
            r->retired[r->retired_count++] = old;
            r->retired_bytes += r->capacity;
        }
        e->memory->used += capacity;
        r->capacity = capacity;
    }
    return r->bytes + r->length;
}

static int append(ck_extra *e, const char *s, size_t n) {
    unsigned char *out = room(e, 2 * n + 1);
    if (out == NULL) return 0;
    e->records.length += ckrunner_escape_field(s, n, out) - 1;   /* the field goes on */
    return 1;
}

static int end_field(ck_extra *e, const char *nil_mark) {
    unsigned char *out = room(e, 3);
    if (out == NULL) return 0;
    size_t k = 0;
    if (nil_mark) { out[k++] = ESCAPE; out[k++] = '0'; }
    out[k++] = FIELD_END;
    e->records.length += k;
    return 1;
}

/* A field keeps at most FIELD_CAP bytes and says how many it left out: a test's output, error
   message or name of any size is handled after the test (in Swift, in a --jobs parent) in time
   and memory bounded by the cap, not by what the test made (400 MB of output took 483 s). */
#define FIELD_CAP ((size_t)1 << 20)

static int append_capped(ck_extra *e, const char *s, size_t n, size_t *left, size_t *cut) {
    size_t kept = n < *left ? n : *left;
    *left -= kept;
    *cut += n - kept;
    return kept == 0 || append(e, s, kept);
}

static int end_capped(ck_extra *e, size_t cut) {
    char note[80];
    int k = cut ? snprintf(note, sizeof note, "\n[cut: %zu more bytes not kept]\n", cut) : 0;
    return (k <= 0 || append(e, note, (size_t)k)) && end_field(e, NULL);
}

/* One field from the value at `i`: a string, a number, an array of strings (a test's output,
   joined), or nil for anything else. Nothing here allocates from Lua or runs a metamethod. */
static int field(lua_State *L, ck_extra *e, int i) {
    char number[48];
    size_t n, left = FIELD_CAP, cut = 0;
    switch (lua_type(L, i)) {
    case LUA_TSTRING: {
        const char *s = lua_tolstring(L, i, &n);
        return append_capped(e, s, n, &left, &cut) && end_capped(e, cut);
    }
    case LUA_TNUMBER:
        if (lua_isinteger(L, i)) n = (size_t)snprintf(number, sizeof number, "%lld", (long long)lua_tointeger(L, i));
        else {
            lua_Number x = lua_tonumber(L, i);   /* seconds: microseconds, as ResultRecords reads fastest */
            n = (size_t)(x >= 0 && x < 1e12 ? snprintf(number, sizeof number, "%llde-6", (long long)(x * 1e6))
                                            : snprintf(number, sizeof number, "%.17g", (double)x));
        }
        return append(e, number, n) && end_field(e, NULL);
    case LUA_TTABLE:
        for (lua_Integer k = 1; lua_rawgeti(L, i, k) == LUA_TSTRING; k++) {
            const char *s = lua_tolstring(L, -1, &n);
            int ok = append_capped(e, s, n, &left, &cut);
            lua_pop(L, 1);
            if (!ok) return 0;
        }
        lua_pop(L, 1);
        return end_capped(e, cut);
    default:
        return end_field(e, "nil");
    }
}

/* record(...): one record of its arguments' fields, appended. A test's is (name, line, status,
   output, seconds, message, traceback, own_name, descriptor); `.busted`'s a key and its values.
   The runner hands only strings, numbers and its output buffers. */
int ckrunner_lua_record(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    size_t mark = e->records.length;
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        if (!field(L, e, i)) {
            e->records.length = mark;
            return luaL_error(L, "out of memory keeping a test's result");
        }
    }
    unsigned char *out = room(e, 1);
    if (out == NULL) {
        e->records.length = mark;
        return luaL_error(L, "out of memory keeping a test's result");
    }
    *out = RECORD_END;
    e->records.length++;
    atomic_store_explicit(&e->records.whole, e->records.length, memory_order_release);
    return 0;
}

size_t ckrunner_records_length(lua_State *L) { return ckinternal_extra_of(L)->records.length; }
/* Forgets the records read so far (a state shared by several test files: each file's own). */
void ckrunner_records_clear(lua_State *L) {
    ck_records *r = &ckinternal_extra_of(L)->records;
    atomic_store_explicit(&r->whole, 0, memory_order_release);
    r->length = 0;
}
const unsigned char *ckrunner_records_bytes(lua_State *L) { return ckinternal_extra_of(L)->records.bytes; }

void ckrunner_records_free(ck_extra *e) {
    ck_records *r = &e->records;
    for (size_t i = 0; i < r->retired_count; i++) free(r->retired[i]);
    free(r->bytes);
    e->memory->used -= r->capacity + r->retired_bytes;
    memset(r, 0, sizeof *r);
}

/* turn(seconds [, runner]): the time limit from now (nil: none) of the code about to run: user
   code at --memory-limit, the runner's own (`runner` true) with RUNNER_RESERVE more. A Ctrl-C
   that stopped the code before ends with it (a first Ctrl-C stops the running test alone). */
int ckrunner_lua_turn(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    ck_memory *m = e->memory;
    if (!e->user_limit_saved) {
        e->user_limit = m->limit;
        e->user_limit_saved = 1;
    }
    if (e->user_limit > 0) m->limit = e->user_limit + (lua_toboolean(L, 2) ? RUNNER_RESERVE : 0);
    ckinterruption_end_raised(L);
    if (lua_type(L, 1) == LUA_TNUMBER) {
        double seconds = lua_tonumber(L, 1);
        ckwatchdog_set_deadline(L, seconds > 0 ? seconds : 0);     /* NaN and negatives: at once */
    } else {
        ckwatchdog_clear_deadline(L);
    }
    return 0;
}

/* The test runner's clock, as a Lua function: called twice a test, it costs no trip through
   Swift and no system call (the vDSO's clock). clock(name) as a test starts notes its full name
   (kept by its element while the file runs) for a crash's line (ckcrash.c). */
int ckrunner_lua_monotonic_clock(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING) ckcrash_note_test(lua_tostring(L, 1));
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    lua_pushnumber(L, (lua_Number)t.tv_sec + (lua_Number)t.tv_nsec * 1e-9);
    return 1;
}
