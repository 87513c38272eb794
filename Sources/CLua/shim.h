#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
