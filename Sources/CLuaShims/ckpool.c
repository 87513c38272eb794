/* Size-class pools for one Lua state's small blocks. A test file's state makes and drops
 * hundreds of thousands of small objects in a fraction of a second and is then closed whole;
 * glibc's malloc/free pair cost a fifth of a `ckrun test` run (callgrind), a pooled pair a few
 * dozen instructions. Blocks above POOL_MAX go to malloc; lua_close frees every block, then
 * ckpool_free returns the chunks. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdlib.h>
#include <string.h>

#define POOL_GRAIN 16
#define POOL_MAX 512
#define POOL_CLASSES (POOL_MAX / POOL_GRAIN)
#define POOL_CHUNK (64 * 1024)

struct ck_pool {
    void *free[POOL_CLASSES + 1];   /* by class (size / POOL_GRAIN, rounded up), linked through their first word */
    char *next, *end;               /* the unused rest of the newest chunk */
    void *chunks;                   /* every chunk, linked through its first word */
};

static size_t class_of(size_t size) { return (size + POOL_GRAIN - 1) / POOL_GRAIN; }

ck_pool *ckpool_new(void) { return calloc(1, sizeof(ck_pool)); }

void ckpool_free(ck_pool *pool) {
    if (pool == NULL) return;
    for (void *chunk = pool->chunks; chunk != NULL;) {
        void *next = *(void **)chunk;
        free(chunk);
        chunk = next;
    }
    free(pool);
}

static void *take(ck_pool *pool, size_t size) {
    if (size > POOL_MAX) return malloc(size);
    size_t c = class_of(size);
    void *block = pool->free[c];
    if (block != NULL) {
        pool->free[c] = *(void **)block;
        return block;
    }
    size_t bytes = c * POOL_GRAIN;
    if (pool->next == NULL || (size_t)(pool->end - pool->next) < bytes) {
        char *chunk = malloc(POOL_CHUNK);
        if (chunk == NULL) return NULL;
        *(void **)chunk = pool->chunks;
        pool->chunks = chunk;
        pool->next = chunk + POOL_GRAIN;     /* the link word's grain */
        pool->end = chunk + POOL_CHUNK;
    }
    block = pool->next;
    pool->next += bytes;
    return block;
}

static void give(ck_pool *pool, void *block, size_t size) {
    if (block == NULL) return;
    if (size > POOL_MAX) { free(block); return; }
    size_t c = class_of(size);
    *(void **)block = pool->free[c];
    pool->free[c] = block;
}

/* realloc's contract on the pool: `old` is the block's size (Lua always passes it), nsize > 0. */
void *ckpool_realloc(ck_pool *pool, void *ptr, size_t old, size_t nsize) {
    if (ptr != NULL) {
        if (old > POOL_MAX && nsize > POOL_MAX) return realloc(ptr, nsize);
        if (old <= POOL_MAX && nsize <= POOL_MAX && class_of(old) == class_of(nsize)) return ptr;
    }
    void *block = take(pool, nsize);
    if (block == NULL || ptr == NULL) return block;
    memcpy(block, ptr, old < nsize ? old : nsize);
    give(pool, ptr, old);
    return block;
}

void ckpool_release(ck_pool *pool, void *ptr, size_t old) { give(pool, ptr, old); }
