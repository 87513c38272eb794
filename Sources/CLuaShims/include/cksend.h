// The cached send path: `action:send(...)` answered in C from a plan the Swift side made,
// without entering Swift, while nothing the plan depends on has changed.
#ifndef CKSEND_H
#define CKSEND_H

#include <stdint.h>
#include <lua.h>

/// Mirrors CKCore's `CallState` field for field (Swift `Int` = intptr_t); a test checks it.
typedef struct ck_callstate {
    intptr_t depth;            // runtime calls under way
    intptr_t sync_requested;   // a sync update waits for the outermost call's end
    intptr_t epoch;            // plans made at another epoch are stale
    intptr_t tracing;          // a tracer records sends: no plans are used
    intptr_t owner_thread;     // pthread_self() of the runtime's thread
    intptr_t planned_sends;    // sends answered here
    intptr_t changing;         // builds, mounts, unmounts, host ends under way: no plans are used
    intptr_t render_depth;     // renders (and their kin) running in a build
    intptr_t entered;          // runtime calls entered so far: a call's number (rollback)
} ck_callstate;

/// Argument type codes a plan checks in C; other types (structs, classes) get no plan.
enum {
    CK_ARG_ANY = 0, CK_ARG_BOOL, CK_ARG_INT, CK_ARG_NUMBER, CK_ARG_STRING, CK_ARG_TABLE, CK_ARG_FUNCTION,
};

#define CK_PLAN_MAX_TYPES 16

/// How to call a send's handler directly. The plan is the action handle's user value 1; its
/// own user value 1 is a weak-valued table {handler, receiver, sender}, so a plan keeps none of
/// them alive (a collected one makes the plan unusable).
typedef struct ck_plan {
    const void *owner;  // the hooks that made it: a plan found on a handle is checked by this
    intptr_t epoch;
    int passed;         // values after the receiver the handler takes: sender first (promotion)
    int ntypes;         // arguments the action accepts after the sender
    int nfull;          // the full signature: positions past ntypes get zeros (demotion)
    int has_receiver;
    int check_sender;   // valid for the planned sender only (selector actions)
    unsigned char types[CK_PLAN_MAX_TYPES];
} ck_plan;

struct ck_memory;

/// What the C path shares with the runtime and falls back on (Swift function ids).
typedef struct ck_send_hooks {
    ck_callstate *state;
    struct ck_memory *memory; // the state's allocator accounting (handlers run outside Swift mode)
    int send;                 // the full send: checks, walks, calls, may record a plan
    int leave;                // ends the outermost call: (call number) -> builds sync updates
    int abandon;              // ends a call whose handler raised: (error, call number, status) -> raises
    int weak_values;          // registry ref of the metatable {__mode = "v"} of plan values
    const void *responder_metatables[3];   // component, controller and view handles...
    int32_t responder_kinds[3];            // ...and the kind each handle of them carries
} ck_send_hooks;

/// Pushes the `send` method of actions.
void cksend_push(lua_State *L, const ck_send_hooks *hooks);

/// Pushes a new metatable for plan values (`{__mode = "v"}`).
void cksend_push_weak_values_metatable(lua_State *L);

/// Stores `plan` on the action handle at `action`; pops the handler, receiver and sender on top.
void cksend_store_plan(lua_State *L, int action, const ck_plan *plan, const ck_send_hooks *hooks);

/// User values an action handle carries (its plan).
#define CK_ACTION_USER_VALUES 1

#endif
