/* The counting allocator behind --memory-limit, and the process heap figure for the soak. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdlib.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

/* "file:line: " of `thread`'s innermost script function into `where` ("" if none). Reads the
   thread's frames only: nothing allocates, so the allocator may call it. */
/* An allocation of Lua's passed the limit: Lua raises LUA_ERRMEM with no message handler, so
   where the script was is noted now, from the thread running it (the one Swift last entered). */
static void note_struck(ck_memory *m) {
    ck_extra *e = m->extra;
    if (e != NULL) ckframes_script_line(e->current, e->struck, sizeof e->struck);
}

const char *ckalloc_limit_message(lua_State *L, lua_State *thread) {
    ck_extra *e = ckinternal_extra_of(L);
    if (e->struck[0] == '\0') ckframes_script_line(thread, e->struck, sizeof e->struck);
    snprintf(e->limit_message, sizeof e->limit_message,
             "[memoryLimit] %sthe script used more than its memory limit (%d MB); raise --memory-limit or use less memory",
             e->struck, (int)(e->memory->limit / (1024 * 1024)));
    e->struck[0] = '\0';
    return e->limit_message;
}

void *ckalloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    ck_memory *m = (ck_memory *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (m->pool) ckpool_release(m->pool, ptr, old); else free(ptr);
        m->used -= old;
        return NULL;
    }
    if (m->limit && nsize > old && m->used + m->held - old + nsize > m->limit) {
        if (m->in_swift == 0) {             /* Lua raises LUA_ERRMEM from C */
            note_struck(m);
            return NULL;
        }
        m->exceeded = 1;                    /* raised by the trampoline later */
    }
    /* Out of memory: the reserve goes back to the C heap for Swift's error path (every NULL Lua
       gets releases it first), and is taken back before Lua grows again when the heap has room.
       Lua still allocates when it has not: a pool's free blocks (ckrun test) are no heap's. Swift
       mode cannot fail: it gets the reserve's room. */
    if (nsize > old && ckinternal_reserve_released()) ckreserve_retake();
    void *p = m->pool ? ckpool_realloc(m->pool, ptr, old, nsize) : realloc(ptr, nsize);
    if (p == NULL && nsize > old) {
        ckreserve_release();
        if (m->in_swift == 0) {
            note_struck(m);                 /* the machine's refusal: where, for ckrun test */
            return NULL;
        }
        p = m->pool ? ckpool_realloc(m->pool, ptr, old, nsize) : realloc(ptr, nsize);
    }
    if (p == NULL) return NULL;
    m->used = m->used - old + nsize;
    if (m->used > m->peak) m->peak = m->used;
    return p;
}

/* Allocated bytes in the heap and in mmap()ed chunks (large blocks are mapped, not in uordblks). */
size_t ckalloc_heap_bytes(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

/* glibc keeps small freed blocks in its fast bins and merges them all (malloc_consolidate) at the
   next request of a large block: after a benchmark's untimed collections that merge would fall to
   whatever the timed part first asks for. One large request now pays it here, returning nothing
   to the system (malloc_trim would, and the timed part would fault the pages back in). */
void ckalloc_settle_heap(void) {
    void *volatile block = malloc(4096);
    free(block);
}

/* glibc hands the top of its heap back to the system once more than 128 KiB is free there, and
   maps a block above 128 KiB on its own, unmapped at its free, until a freed mapped block raises
   both thresholds (to at most 32 MiB mapped, 64 MiB trimmed). A test file's state closed frees
   its blocks; what sits above them decides whether the top is trimmed, and the next file's state
   then faults each page back in: 0 to 3,400 more page faults a `ckrun test --jobs 2` run of the
   10,000-test suite, varying from run to run (2,000 with these, every run). These are the
   values glibc's own thresholds grow to, set from the start (which also fixes them there). */
void ckalloc_keep_freed_memory(void) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

/* memory_place(): "file:line: " where the last allocation of Lua's failed ("" if unknown), then
   forgets it. Lua's own "not enough memory" carries no place (ckrun test names the test's line). */
int ckalloc_lua_struck_place(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    lua_pushstring(L, e->struck);
    e->struck[0] = '\0';
    return 1;
}

/* A coroutine's memory error reaches a resume as a plain error carrying Lua's fixed message. */
int ckalloc_is_limit_error(lua_State *L, int status) {
    if (ckinternal_extra_of(L)->memory->limit == 0) return 0;   /* the machine's: Lua's own message */
    if (status == LUA_ERRMEM) return 1;
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    return msg != NULL && strcmp(msg, "not enough memory") == 0;
}

/* Replaces the error on top by the catalogued message. Allocates in Swift mode (it cannot fail),
   and leaves no overshoot behind: the script goes on below its limit or fails its next allocation. */
void ckalloc_catalogue_error(lua_State *L) {
    ck_memory *m = ckinternal_extra_of(L)->memory;
    int exceeded = m->exceeded;
    m->in_swift++;
    lua_pop(L, 1);
    lua_pushstring(L, ckalloc_limit_message(L, L));
    m->in_swift--;
    m->exceeded = exceeded;
}
