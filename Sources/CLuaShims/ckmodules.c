/* Lua modules compiled ahead, in a bare state of a thread of their own (ChunkCompiler), for a
   test state that would load the same files later: each is used only while its path still names
   the file it was compiled from, unchanged (CompiledChunks.module). */
#include "ckshims.h"
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>

int ckmodules_identity(const char *path, ck_file_identity *identity) {
    struct stat st;
    struct statfs fs;
    if (path == NULL || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || statfs(path, &fs) != 0
        || fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC) return 0;
    *identity = (ck_file_identity){
        .device = st.st_dev, .inode = st.st_ino, .size = st.st_size,
        .modified_seconds = st.st_mtim.tv_sec, .modified_nanoseconds = st.st_mtim.tv_nsec,
        .changed_seconds = st.st_ctim.tv_sec, .changed_nanoseconds = st.st_ctim.tv_nsec};
    return 1;
}

/* package.searchpath(name, package.path) of a fresh package library (its path from LUA_PATH_5_4,
   LUA_PATH or Lua's default, as every state's starts): the path, or nothing. */
static int search_k(lua_State *L) {
    const char *name = (const char *)lua_touserdata(L, 1);
    luaL_requiref(L, LUA_LOADLIBNAME, luaopen_package, 0);
    lua_getfield(L, -1, "searchpath");
    lua_pushstring(L, name);
    lua_getfield(L, -3, "path");
    lua_call(L, 2, 1);
    return lua_type(L, -1) == LUA_TSTRING ? 1 : 0;
}

int ckmodules_compile(lua_State *L, const char *name, ck_file_identity *identity) {
    int base = lua_gettop(L);
    ckpcall_set_text_only(L);   /* a binary file is left to the state that requires it */
    lua_pushcfunction(L, search_k);
    lua_pushlightuserdata(L, (void *)name);
    const char *path = ckpcall_at(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    ck_file_identity before, after;
    if (path != NULL && ckmodules_identity(path, &before) && ckpcall_loadfile(L, path) == LUA_OK
        && ckmodules_identity(path, &after) && memcmp(&before, &after, sizeof before) == 0) {
        *identity = before;
        lua_insert(L, -2);   /* the function, then the path */
        return 2;
    }
    lua_settop(L, base);
    return 0;
}
