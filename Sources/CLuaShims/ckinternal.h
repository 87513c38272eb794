// Shared between the C files of the bridge; not part of its public header.
#ifndef CKINTERNAL_H
#define CKINTERNAL_H

#include <lua.h>

/// Runs host function `id` on the current stack as if Lua had called it (its `file:line` is
/// the Lua caller's); raises what it asks to raise. Returns its result count.
int ck_call_host(lua_State *L, int id);

#endif
