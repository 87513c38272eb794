/* Memory kept for ckrun's own Swift and C code once Lua's allocator fails. Swift ends the process
   when an allocation of its own fails ("Fatal error: failed to allocate"); after Lua ran out of
   memory (ulimit -v, a container's limit) Swift reports the error, ends the turn, prints: so the
   blocks below are given back to the C heap whenever an allocation of Lua's fails, and taken
   again when the heap has room before Lua grows. Lua never gets NULL while they are held. */
#include "ckshims.h"
#include "ckinternal.h"
#include <pthread.h>
#include <stdlib.h>

enum { CK_RESERVE_BLOCKS = 32, CK_RESERVE_BLOCK_BYTES = 64 * 1024 };  /* 2 MB, below mmap's threshold:
                                                 freed, they stay in malloc's free lists for Swift */
static void *blocks[CK_RESERVE_BLOCKS];
int ckreserve_released_flag = 1;               /* nothing held before the first state is made */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Allocations of Lua's to let pass before trying again after a retake failed: while the heap is
   full, each try is a malloc that fails (system calls), and a pool may serve Lua meanwhile. */
static unsigned retake_skips = 0;

void ckreserve_release(void) {
    pthread_mutex_lock(&lock);
    retake_skips = 0;   /* the retry Lua makes after its emergency collection tries at once */
    for (int i = 0; i < CK_RESERVE_BLOCKS; i++) { free(blocks[i]); blocks[i] = NULL; }
    __atomic_store_n(&ckreserve_released_flag, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
}

int ckreserve_retake(void) {
    pthread_mutex_lock(&lock);
    if (retake_skips > 0) {
        retake_skips--;
        pthread_mutex_unlock(&lock);
        return 0;
    }
    int taken = 1;
    for (int i = 0; i < CK_RESERVE_BLOCKS && taken; i++) {
        if (blocks[i] == NULL) blocks[i] = malloc(CK_RESERVE_BLOCK_BYTES);
        taken = blocks[i] != NULL;
    }
    if (taken) {
        __atomic_store_n(&ckreserve_released_flag, 0, __ATOMIC_RELEASE);
    } else {                                   /* all or nothing: what it got stays Swift's */
        for (int i = 0; i < CK_RESERVE_BLOCKS; i++) { free(blocks[i]); blocks[i] = NULL; }
        retake_skips = 1024;
    }
    pthread_mutex_unlock(&lock);
    return taken;
}
