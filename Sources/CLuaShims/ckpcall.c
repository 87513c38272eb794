/* Protected calls, loading, and metamethod operations run under pcall. */
#include "ckshims.h"
#include "ckinternal.h"
#include <string.h>
#include <sys/stat.h>

/* Registry keys: the last error value that was no string, and the text made of it. */
static const char error_value_key = 0, error_text_key = 0;

static int error_tostring_k(lua_State *L) { return luaL_callmeta(L, 1, "__tostring"); }

/* What an error that is no string says: its __tostring's string, run protected (one that raises must
   not replace the handler's error) and out of Swift mode (ckpcall_at: the limits hold), or its type. */
static const char *error_text(lua_State *L) {
    lua_pushcfunction(L, error_tostring_k);
    lua_pushvalue(L, 1);
    if (ckpcall_at(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1);
    return lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
}

int ckpcall_traceback(lua_State *L) {
    /* In Swift mode, so it cannot fail to allocate: at the memory limit the frames that hold the
       memory are still live here, and a failing handler would put Lua's bare memory error (at
       the caller's line) in place of the script's own error. It leaves no overshoot behind. */
    ck_memory *m = ckinternal_extra_of(L)->memory;
    int exceeded = m->exceeded;
    m->in_swift++;
    /* The value itself, for ckpcall_error_value (a table error stays a table); kept before
       lua_tostring turns a number into a string in place. */
    int kept = lua_type(L, 1) != LUA_TSTRING;
    if (kept) {   /* nil as the key's own address: a nil would remove the key */
        if (lua_isnil(L, 1)) lua_pushlightuserdata(L, (void *)&error_value_key);
        else lua_pushvalue(L, 1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &error_value_key);
    }
    const char *msg = lua_tostring(L, 1);
    msg = msg == NULL ? error_text(L) : ckcstack_overflow_message(L, msg);
    luaL_traceback(L, L, msg, 1);
    ckreplframes_drop(L);
    if (kept) {
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &error_text_key);
    }
    m->in_swift--;
    m->exceeded = exceeded;
    return 1;
}

/* Empties both slots. False, not nil: the keys stay in the registry, so ckpcall_traceback
   setting them (at the memory limit too) allocates nothing. ckstate_new makes them. */
void ckpcall_clear_error_value(lua_State *L) {
    lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &error_text_key);
    lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &error_value_key);
}

/* If the error text at `index` is the one ckpcall_traceback made of a value that was no string,
   pushes that value, forgets it and returns 1; else returns 0. */
int ckpcall_error_value(lua_State *L, int index) {
    index = lua_absindex(L, index);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &error_text_key);
    int same = lua_rawequal(L, -1, index);
    lua_pop(L, 1);
    if (!same) return 0;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &error_value_key);
    if (lua_touserdata(L, -1) == (void *)&error_value_key) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    ckpcall_clear_error_value(L);
    return 1;
}

/* Lua code called back from Swift may fail to allocate again: Swift mode is suspended for it.
   Host mode and the running thread are restored whatever unwound to here. An overshoot Swift made
   that the collector has since undone is forgotten (one still standing fails Lua's next allocation). */
int ckpcall_at(lua_State *L, int nargs, int nresults, int msgh) {
    ck_extra *e = ckinternal_extra_of(L);
    ck_memory *m = e->memory;
    int saved = m->in_swift;
    lua_State *thread = e->current;
    if (m->exceeded && !ckshims_over_limit(m)) m->exceeded = 0;
    m->in_swift = 0;
    e->current = L;   /* the thread that runs the Lua code: where a memory error struck is read there */
    int status = lua_pcall(L, nargs, nresults, msgh);
    m->in_swift = saved;
    e->current = thread;
    return status;
}

int ckpcall(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, ckpcall_traceback);
    lua_insert(L, base);
    int status = ckpcall_at(L, nargs, nresults, base);
    lua_remove(L, base);
    return status;
}

static int binary_refusal_k(lua_State *L) {
    const char *name = lua_touserdata(L, 1);
    if (*name == '=' || *name == '@') name++;
    lua_pushfstring(L, "[sandbox] %s: loading a binary (precompiled) chunk is not allowed under --sandbox; "
                       "load Lua source text", name);
    return 1;
}

/* Under --sandbox Lua's "attempt to load a binary chunk" becomes the catalogued refusal here, where
   every path that loads for a script passes (lua.c's REPL printed Lua's bare message). Made under
   pcall: out of memory keeps Lua's message. */
static int refusing_binary(lua_State *L, int status, const char *name) {
    if (status != LUA_ERRSYNTAX || !ckinternal_extra_of(L)->text_only || lua_type(L, -1) != LUA_TSTRING
        || strstr(lua_tostring(L, -1), "attempt to load a binary chunk") == NULL) return status;
    lua_pushcfunction(L, binary_refusal_k);
    lua_pushlightuserdata(L, (void *)name);
    if (ckpcall_at(L, 1, 1, 0) == LUA_OK) lua_replace(L, -2);
    else lua_pop(L, 1);
    return status;
}

/* Every chunk ckrun loads for a script comes through the three loaders below (check-layout refuses
   Lua's own elsewhere): under --sandbox none loads a binary chunk. Compiling runs in Lua mode, so the
   allocator refuses past the memory limit (in Swift mode a 100 MB literal compiled under 8 MB). */
static int ckpcall_set_in_swift(lua_State *L, int in_swift) {
    ck_memory *m = ckinternal_extra_of(L)->memory;
    int saved = m->in_swift;
    m->in_swift = in_swift;
    return saved;
}

int ckpcall_loadbuffer(lua_State *L, const char *buf, size_t len, const char *name, const char *mode) {
    int saved = ckpcall_set_in_swift(L, 0);
    int status = luaL_loadbufferx(L, buf, len, name, ckinternal_extra_of(L)->text_only ? "t" : mode);
    ckpcall_set_in_swift(L, saved);
    return refusing_binary(L, status, name);
}

/* A file ckrun loads itself is no FIFO or socket: opening one blocks before any limit can run
   (a script from a pipe comes through ckstream.c). Every failure to read carries the catalogue's
   id. NULL is standard input. */
int ckpcall_loadfile(lua_State *L, const char *path) {
    struct stat st;
    if (path && stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISDIR(st.st_mode))) {
        lua_pushfstring(L, "[cannotRead] cannot read %s: %s, not a regular file; name a Lua file (or `-` for standard input)",
                        path, S_ISDIR(st.st_mode) ? "a directory" : "a FIFO or socket");
        return LUA_ERRFILE;
    }
    int saved = ckpcall_set_in_swift(L, 0);
    int loaded = luaL_loadfilex(L, path, ckinternal_extra_of(L)->text_only ? "t" : NULL);
    ckpcall_set_in_swift(L, saved);
    int status = refusing_binary(L, loaded, path ? path : "stdin");
    if (status == LUA_ERRFILE && lua_type(L, -1) == LUA_TSTRING) {
        lua_pushfstring(L, "[cannotRead] %s", lua_tostring(L, -1));
        lua_remove(L, -2);
    }
    return status;
}

int ckpcall_load(lua_State *L, lua_Reader reader, void *data, const char *chunkname) {
    int saved = ckpcall_set_in_swift(L, 0);
    int status = lua_load(L, reader, data, chunkname, ckinternal_extra_of(L)->text_only ? "t" : NULL);
    ckpcall_set_in_swift(L, saved);
    return refusing_binary(L, status, chunkname);
}

void ckpcall_set_text_only(lua_State *L) { ckinternal_extra_of(L)->text_only = 1; }

/* Bytecode this process's lua_dump made of what it compiled (CompiledChunks): loaded in any mode. */
int ckpcall_load_trusted_bytecode(lua_State *L, const char *buf, size_t len, const char *name) {
    return luaL_loadbufferx(L, buf, len, name, "b");
}

static int openlibs_k(lua_State *L) { luaL_openlibs(L); return 0; }

int ckpcall_openlibs(lua_State *L) {
    lua_pushcfunction(L, openlibs_k);
    return lua_pcall(L, 0, 0, 0);
}

static int next_k(lua_State *L) {
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

/* lua_next under pcall, for traversals that run Lua between steps (a __tostring may change the
   table: Lua then raises "invalid key to 'next'"). Key on top -> key, value (1), or nothing (0). */
int ckpcall_safe_next(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, next_k);
    lua_pushvalue(L, idx);
    lua_rotate(L, -3, 2);             /* fn t key */
    if (ckpcall_at(L, 2, LUA_MULTRET, 0) != LUA_OK || lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

static int gettable_k(lua_State *L) { lua_gettable(L, 1); return 1; }
static int settable_k(lua_State *L) { lua_settable(L, 1); return 0; }
static int tostring_k(lua_State *L) { luaL_tolstring(L, 1, NULL); return 1; }
static int equal_k(lua_State *L) { lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPEQ)); return 1; }

int ckpcall_safe_gettable(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, gettable_k);
    lua_pushvalue(L, idx);            /* ... key fn t */
    lua_rotate(L, -3, 2);             /* ... fn t key */
    return ckpcall_at(L, 2, 1, 0);
}

int ckpcall_safe_getfield(lua_State *L, int idx, const char *k) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, gettable_k);
    lua_pushvalue(L, idx);
    lua_pushstring(L, k);
    return ckpcall_at(L, 2, 1, 0);
}

int ckpcall_safe_settable(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);       /* stack: ... key value */
    lua_pushcfunction(L, settable_k);
    lua_pushvalue(L, idx);            /* ... key value fn t */
    lua_rotate(L, -4, 2);             /* ... fn t key value */
    return ckpcall_at(L, 3, 0, 0);
}

int ckpcall_safe_tostring(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, tostring_k);
    lua_pushvalue(L, idx);
    return ckpcall_at(L, 1, 1, 0);
}

int ckpcall_safe_equal(lua_State *L, int a, int b, int *result) {
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    lua_pushcfunction(L, equal_k);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    int status = ckpcall_at(L, 2, 1, 0);
    if (status == LUA_OK) {
        *result = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    return status;
}
