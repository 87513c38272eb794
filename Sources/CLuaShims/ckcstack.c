/* How much C stack the running thread has left. A script that nests Lua -> Swift -> Lua (a
   render that builds a host, a handler that sends, a class call inside a render) runs Swift
   frames that Lua's own count of nested C calls does not weigh: under `ulimit -s 512` a few dozen
   nested host builds overflowed the stack (SIGSEGV) long before Lua's 200 nested calls. Every
   entry from Lua into Swift (cktrampoline_call_swift) asks this first. */
#define _GNU_SOURCE
#include "ckshims.h"
#include "ckinternal.h"
#include <pthread.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The thread's lowest usable stack address and its stack's size, found once per thread (0: not
   yet; size 0: unknown, never refused). */
static _Thread_local uintptr_t stack_low = 0;
static _Thread_local size_t stack_size = 0;
_Thread_local uintptr_t ckcstack_floor = UINTPTR_MAX;

/* The main thread's stack grows down from the exec file name the kernel put at its top, as far
   as RLIMIT_STACK lets it; pthread_getattr_np would read /proc/self/maps for it. */
static int main_thread_bounds(void) {
    struct rlimit limit;
    const char *top = (const char *)getauxval(AT_EXECFN);
    if (top == NULL || getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t end = ((uintptr_t)top + strlen(top) + 1 + sizeof(void *) + page - 1) & ~(page - 1);
    if (limit.rlim_cur >= end) return 0;
    stack_low = end - limit.rlim_cur;
    stack_size = limit.rlim_cur;
    return 1;
}

static void find_bounds(void) {
    if (getpid() == (pid_t)syscall(SYS_gettid) && main_thread_bounds()) return;
    pthread_attr_t attr;
    void *low = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &low, &size) != 0) size = 0;
        pthread_attr_destroy(&attr);
    }
    stack_low = size ? (uintptr_t)low : 1;
    stack_size = size;
}

/* Whether a call from Lua into Swift may go deeper: false when less than a quarter of the stack
   (between 64 KB and 256 KB) is left, room for one Swift call and the error's handling. Sets
   `left` and `size` in bytes (size 0: the bounds are unknown). */
int ckcstack_has_room(size_t *left, size_t *size) {
    if (stack_low == 0) find_bounds();
    char here;
    uintptr_t frame = (uintptr_t)&here;
    *size = stack_size;
    *left = stack_size && frame > stack_low ? frame - stack_low : 0;
    if (stack_size == 0) { ckcstack_floor = 0; return 1; }
    size_t reserve = stack_size / 4;
    if (reserve < 64 * 1024) reserve = 64 * 1024;
    if (reserve > 256 * 1024) reserve = 256 * 1024;
    ckcstack_floor = stack_low + reserve;
    return *left > reserve;
}

/* Lua's own count of nested C calls (200 in 5.4) is what stops nested renders, handlers and sends
   (each nests a call from C into Lua); its "C stack overflow" becomes the catalogued error. One
   without a place outside any call into Swift stays Lua's own: the parser's, which `load` returns
   (Lua calls the message handler for it too), as the REPL compiles a too deeply nested line. */
const char *ckcstack_overflow_message(lua_State *L, const char *msg) {
    static const char overflow[] = "C stack overflow";
    size_t len = strlen(msg), n = sizeof(overflow) - 1;
    if (len < n || strcmp(msg + len - n, overflow) != 0) return msg;
    if (len == n && ckinternal_extra_of(L)->swift_depth == 0) return msg;
    lua_pushliteral(L, "[stackLimit] ");
    if (len == n) ckwhere_script(L);
    else lua_pushlstring(L, msg, len - n);
    lua_pushliteral(L, "calls between Lua and ckrun (host builds, sends, mounts, class calls) and Lua's own "
                       "C calls (metamethods, pcall) nested deeper than Lua's limit of about 200; nest them less "
                       "deeply: make hosts and send actions one after another, not from inside each other's "
                       "renders and handlers");
    lua_concat(L, 3);
    return lua_tostring(L, -1);
}
