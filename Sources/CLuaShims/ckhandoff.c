/* What ckrun test hands on from where it cannot call Swift: the running file's whole records,
   to another thread (a serial run's ending reads them while the recording thread may be in
   the middle of a record) or, under --jobs, to the parent on its signal (a worker writes them
   from its handler); and an os.exit a finalizer called as a test file's state closed, whose
   error lua_close swallows, kept for the runner to read once the state closed. */
#include "ckshims.h"
#include "ckinternal.h"
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

/* The bytes of the whole records kept so far: a consistent pair whatever the recording thread
   is doing (ck_records: what `bytes` points to holds at least `whole` bytes, and stays). */
size_t ckhandoff_whole_records(lua_State *L, const unsigned char **bytes) {
    ck_records *r = &ckinternal_extra_of(L)->records;
    size_t whole = atomic_load_explicit(&r->whole, memory_order_acquire);
    *bytes = atomic_load_explicit(&r->bytes, memory_order_acquire);
    return *bytes == NULL ? 0 : whole;
}

static ck_extra *_Atomic shared;         /* the state whose records the signal hands on */
static int share_fd = -1;
static char share_prefix[160];
static size_t share_prefix_length;
static pthread_t share_thread;

static void write_all(int fd, const void *bytes, size_t n) {
    const char *p = bytes;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return;
        p += k;
        n -= (size_t)k;
    }
}

/* The prefix, the whole records of the shared state (none between files), a newline (records
   hold none); on the thread that records, where the state is never closed under it. */
static void write_shared(void) {
    ck_extra *e = atomic_load_explicit(&shared, memory_order_acquire);
    write_all(share_fd, share_prefix, share_prefix_length);
    if (e != NULL) {
        size_t whole = atomic_load_explicit(&e->records.whole, memory_order_acquire);
        const unsigned char *bytes = atomic_load_explicit(&e->records.bytes, memory_order_acquire);
        if (bytes != NULL) write_all(share_fd, bytes, whole);
    }
    write_all(share_fd, "\n", 1);
}

static void on_share_signal(int signal) {
    if (!pthread_equal(pthread_self(), share_thread)) { pthread_kill(share_thread, signal); return; }
    int saved = errno;
    write_shared();
    errno = saved;
}

/* Async-signal-safe, from a handler on the thread that records (the watchdog's last resort in a
   --jobs worker): the records line, as the signal writes it; nothing on another thread. */
void ckhandoff_write_shared(void) {
    if (share_fd < 0 || !pthread_equal(pthread_self(), share_thread)) return;
    int saved = errno;
    write_shared();
    errno = saved;
}

/* From now, `signal` makes this thread write `prefix` and the shared state's whole records to
   `fd` (a --jobs worker's answers). */
void ckhandoff_share_on(int signal, int fd, const char *prefix, size_t length) {
    if (length > sizeof share_prefix) length = sizeof share_prefix;
    memcpy(share_prefix, prefix, length);
    share_prefix_length = length;
    share_fd = fd;
    share_thread = pthread_self();
    cksignals_handle(signal, on_share_signal, SA_RESTART, NULL);
}

/* The state whose records the signal hands on (NULL: none, before its state closes). */
void ckhandoff_share(lua_State *L) {
    atomic_store_explicit(&shared, L == NULL ? NULL : ckinternal_extra_of(L), memory_order_release);
}

static char closing_exit[512];
static volatile sig_atomic_t has_closing_exit;
/* The status (1-255) of the first os.exit since the last take that gave one not 0: the run's
   exit status, as the exit would have ended busted's run with it (a 0 does not choose: its test
   failed, so the run ends 1). -1: none. */
static int noted_status = -1;

/* note_exit(message, status): notes the status of the first os.exit not 0 since the last take; when the
   state is closing, also keeps the message (the first, cut to 511 bytes): os.exit called by a
   finalizer lua_close runs, whose error becomes a warning nobody reads. */
int ckhandoff_lua_note_exit(lua_State *L) {
    lua_Integer status = lua_tointegerx(L, 2, NULL);
    if (noted_status < 0 && lua_isinteger(L, 2) && (status & 0xFF) != 0) noted_status = (int)(status & 0xFF);
    size_t n;
    const char *s = lua_tolstring(L, 1, &n);
    if (!ckinternal_extra_of(L)->closing || s == NULL || has_closing_exit) return 0;
    if (n >= sizeof closing_exit) n = sizeof closing_exit - 1;
    memcpy(closing_exit, s, n);
    closing_exit[n] = '\0';
    has_closing_exit = 1;
    return 0;
}

/* The noted message (NUL-terminated), no longer noted; NULL when none. Valid until the next note. */
const char *ckhandoff_take_closing_exit(void) {
    if (!has_closing_exit) return NULL;
    has_closing_exit = 0;
    return closing_exit;
}

/* The noted os.exit status (0-255), no longer noted; -1 when none. */
int ckhandoff_take_exit_status(void) {
    int status = noted_status;
    noted_status = -1;
    return status;
}
