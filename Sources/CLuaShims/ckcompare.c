/* Pure components' default `shouldUpdate`: are two props tables shallow-equal (same keys, raw-equal
   values)? One C call instead of a dozen Swift-to-Lua API calls per key: a parent re-rendering
   1,000 unchanged rows compares 1,000 pairs. Raw operations only, so it cannot raise. Two
   userdata that differ may be equal runtime objects (actions are `==` by what they do, and a
   render makes new ones each time): the answer is then "maybe" (2), and the caller compares
   those pairs as objects (Values.shallowEqual); plain values never take that path. */
#include "ckshims.h"
#include "ckinternal.h"

/* Every key of the table at `x` has a raw-equal value in `y`, or both are userdata (`*objects`
   set); counts x's keys into `*count`. */
static int contained(lua_State *L, int x, int y, long *count, int *objects) {
    lua_pushnil(L);
    while (lua_next(L, x) != 0) {               /* k v */
        lua_pushvalue(L, -2);
        lua_rawget(L, y);                       /* k v y[k] */
        int same = lua_rawequal(L, -1, -2);
        if (!same && lua_type(L, -1) == LUA_TUSERDATA && lua_type(L, -2) == LUA_TUSERDATA) same = *objects = 1;
        lua_pop(L, 2);
        if (!same) { lua_pop(L, 1); return 0; }
        (*count)++;
    }
    return 1;
}

/* The number of keys of the table at `t`, stopping once it passes `limit`. */
static long count_keys(lua_State *L, int t, long limit) {
    long n = 0;
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        lua_pop(L, 1);
        if (++n > limit) { lua_pop(L, 1); break; }
    }
    return n;
}

/* x's pairs are all in y (values are never nil), so the tables are equal when y has no more
   keys: `y_keys` of them, or counted here when it is negative. */
static int equal_tables(lua_State *L, int x, int y, long y_keys) {
    if (lua_type(L, x) != LUA_TTABLE || lua_type(L, y) != LUA_TTABLE || !lua_checkstack(L, 4)) return 0;
    int top = lua_gettop(L);
    x = lua_absindex(L, x);
    y = lua_absindex(L, y);
    long in_x = 0;
    int objects = 0;
    int equal = contained(L, x, y, &in_x, &objects) && (y_keys < 0 ? count_keys(L, y, in_x) : y_keys) == in_x;
    lua_settop(L, top);
    return equal ? 1 + objects : 0;
}

int ckcompare_shallow_equal(lua_State *L, int a, int b) { return equal_tables(L, a, b, -1); }

/* The carried table at `carried` was built with `carried_keys` keys (ckcompare_count): the given
   one is walked alone (one walk, not two). Both are tables at absolute indices with 4 slots free
   (class_call's case, which checked them): nothing is asked again, and `contained` leaves the
   stack as it found it. */
int ckcompare_shallow_equal_counted(lua_State *L, int given, int carried, long carried_keys) {
    long in_given = 0;
    int objects = 0;
    int equal = contained(L, given, carried, &in_given, &objects) && in_given == carried_keys;
    return equal ? 1 + objects : 0;
}

/* The keys of the table at `t` (raw), and in `*plain` whether its keys and values all reach
   nothing (strings, numbers, booleans, light userdata): one walk for both. */
long ckcompare_count(lua_State *L, int t, int *plain) {
    t = lua_absindex(L, t);
    long n = 0;
    *plain = 1;
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        if (*plain && (lua_type(L, -1) > LUA_TSTRING || lua_type(L, -2) > LUA_TSTRING)) *plain = 0;
        lua_settop(L, -2);
        n++;
    }
    return n;
}
