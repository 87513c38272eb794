/* A script lua5.4 reads from a pipe (`ckrun <(echo …)`, `… | ckrun /dev/stdin`, a FIFO, `-` on a
   pipe, LUA_INIT=@/dev/fd/N): luaL_loadfilex's reading (a BOM and a `#` first line skipped, a
   binary chunk detected), lazily as lua_load asks, but through poll(2) (a path opened without
   waiting; standard input left as it is, shared with others), so a writer that never writes or never closes cannot hold the run past
   --timeout: each wait is at most 100 ms and ends on the turn's deadline (the watchdog's flag),
   which fails the load with [timeout] before the watchdog's last resort has to end the process. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ckshims.h"
#include "ckinternal.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lauxlib.h>

int ckstream_is_stream(const char *path) {
    struct stat st;
    int found = path ? stat(path, &st) : fstat(0, &st);
    if (found != 0) return 0;
    /* Standard input may be a socket (a service's); a path naming one cannot be opened. */
    return S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || (path == NULL && S_ISSOCK(st.st_mode));
}

typedef struct {
    lua_State *L;
    int fd;
    int started;
    int failure;        /* errno of a failed read, ETIME for the deadline */
    char head[2];       /* what luaL_loadfilex hands lua_load first: '\n' for a skipped `#` line, the first byte */
    size_t head_length;
    size_t at, count;
    char buffer[4096];
} stream_reader;

/* Refills the buffer; 0 at the end, on a failure (r->failure) or on the deadline. Reads only
   once poll says a read will not wait: a FIFO opened without waiting reads as ended until a
   writer came, and poll waits for one (Linux reports no hang-up before a writer left). */
static int refill(stream_reader *r) {
    for (;;) {
        if (ckwatchdog_deadline_passed(r->L) || ckinternal_extra_of(r->L)->interrupted) {
            r->failure = ETIME;
            return 0;
        }
        struct pollfd p = { .fd = r->fd, .events = POLLIN };
        int ready = poll(&p, 1, 100);
        if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
        ssize_t n = ready < 0 ? -1 : read(r->fd, r->buffer, sizeof r->buffer);
        if (n > 0) {
            r->at = 0;
            r->count = (size_t)n;
            return 1;
        }
        if (n == 0) return 0;
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) continue;
        r->failure = errno;
        return 0;
    }
}

static int next_byte(stream_reader *r) {
    if (r->at == r->count && !refill(r)) return EOF;
    return (unsigned char)r->buffer[r->at++];
}

/* lauxlib's skipBOM and skipcomment, on the stream. */
static int first_byte(stream_reader *r) {
    int c = next_byte(r);
    if (c == 0xEF && next_byte(r) == 0xBB && next_byte(r) == 0xBF) return next_byte(r);
    return c;
}

static void start(stream_reader *r) {
    r->started = 1;
    int c = first_byte(r);
    if (c == '#') {
        do { c = next_byte(r); } while (c != EOF && c != '\n');
        c = next_byte(r);
        if (c != LUA_SIGNATURE[0]) r->head[r->head_length++] = '\n';   /* the line count stays */
    }
    if (c != EOF) r->head[r->head_length++] = (char)c;
}

static const char *read_stream(lua_State *L, void *data, size_t *size) {
    (void)L;
    stream_reader *r = data;
    if (!r->started) {
        start(r);
        if (r->head_length > 0 && !r->failure) {
            *size = r->head_length;
            return r->head;
        }
    }
    if (r->failure || (r->at == r->count && !refill(r))) {
        *size = 0;
        return NULL;
    }
    *size = r->count - r->at;
    const char *bytes = r->buffer + r->at;
    r->at = r->count;
    return bytes;
}

int ckstream_loadfile(lua_State *L, const char *path) {
    const char *shown = path ? path : "stdin";
    stream_reader r;
    memset(&r, 0, sizeof r);
    r.L = L;
    r.fd = path ? open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) : fcntl(0, F_DUPFD_CLOEXEC, 3);
    if (r.fd < 0) {
        lua_pushfstring(L, "[cannotRead] cannot open %s: %s", shown, strerror(errno));
        return LUA_ERRFILE;
    }
    char chunkname[PATH_MAX + 2];
    snprintf(chunkname, sizeof chunkname, "%c%s", path ? '@' : '=', shown);
    int status = ckpcall_load(L, read_stream, &r, chunkname);
    close(r.fd);
    if (r.failure == ETIME) {
        lua_pop(L, 1);
        lua_pushfstring(L, "[timeout] %s was still being read when the time limit (--timeout) ran out: "
                           "its writer had not finished; give the script as a file, or a longer --timeout", shown);
        return LUA_ERRFILE;
    }
    if (r.failure) {
        lua_pop(L, 1);
        lua_pushfstring(L, "[cannotRead] cannot read %s: %s", shown, strerror(r.failure));
        return LUA_ERRFILE;
    }
    return status;
}
