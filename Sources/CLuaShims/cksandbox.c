/* What --sandbox asks the system before a script reads a file: reading is allowed (scripts read
   their fixtures), but procfs and sysfs hand out the process's secrets through reads
   (/proc/self/environ is what os.getenv is refused for, /proc/self/mem any byte of memory), a
   FIFO blocks where no time limit reaches, and device files read the machine. */
#include "ckshims.h"
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

/* /dev/null, /dev/zero, /dev/full, /dev/random, /dev/urandom: the memory devices that read
   nothing of the machine (major 1; minors 1, 2 and 4 are /dev/mem, /dev/kmem, /dev/port). */
static int is_harmless_device(const struct stat *st) {
    if (!S_ISCHR(st->st_mode) || major(st->st_rdev) != 1) return 0;
    unsigned minor_number = minor(st->st_rdev);
    return minor_number == 3 || minor_number == 5 || minor_number == 7 || minor_number == 8 || minor_number == 9;
}

/* Why the file open() reaches at this path may not be read, or NULL. The descriptor is asked,
   not the path, so symlinks count as open follows them; O_NONBLOCK keeps a FIFO from waiting. */
static const char *refusal(const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return NULL; /* the reader reports why it could not open it */
    struct stat st;
    struct statfs fs;
    const char *why = NULL;
    if (fstat(fd, &st) != 0) why = "a file that cannot be examined";
    else if (is_harmless_device(&st) || S_ISDIR(st.st_mode)) why = NULL;
    else if (!S_ISREG(st.st_mode)) why = "not a regular file (a FIFO, socket or device)";
    else if (fstatfs(fd, &fs) != 0) why = "a file that cannot be examined";
    else if (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC) why = "a file of the process or the kernel (/proc, /sys)";
    close(fd);
    return why;
}

/* readable(path) -> true, or nil and why. A non-string or a name with a NUL is left to the
   reader, which reports its own error. */
int cksandbox_readable(lua_State *L) {
    size_t length = 0;
    const char *path = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &length) : NULL;
    const char *why = path != NULL && strlen(path) == length ? refusal(path) : NULL;
    if (why == NULL) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushnil(L);
    lua_pushstring(L, why);
    return 2;
}

/* The sandbox's wrappers are Lua functions: `return io.open(p, "w")` would tail-call one, and a
   tail call drops the script's frame, so the refusal named no line (or its caller's). A C
   function keeps its caller's frame, so each wrapper is reached through this one: it calls its
   upvalue with the arguments and returns what it returns (lua_callk: a chunk dofile runs may
   yield). Errors go through Lua's own longjmp between two Lua frames, never across Swift. */
static int forwarded(lua_State *L, int status, lua_KContext ctx) {
    (void)status;
    (void)ctx;
    return lua_gettop(L);
}

static int forward(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, forwarded);
    return lua_gettop(L);
}

int cksandbox_forwarding(lua_State *L) {
    lua_settop(L, 1);
    lua_pushcclosure(L, forward, 1);
    return 1;
}
