/* The counting allocator behind --memory-limit, and the process heap figure for the soak. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdlib.h>
#include <malloc.h>

void *ckalloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    ck_memory *m = (ck_memory *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (m->pool) ckpool_release(m->pool, ptr, old); else free(ptr);
        m->used -= old;
        return NULL;
    }
    if (m->limit && nsize > old && m->used + m->held - old + nsize > m->limit) {
        if (m->in_swift == 0) return NULL;   /* Lua raises LUA_ERRMEM from C */
        m->exceeded = 1;                    /* raised by the trampoline later */
    }
    void *p = m->pool ? ckpool_realloc(m->pool, ptr, old, nsize) : realloc(ptr, nsize);
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
