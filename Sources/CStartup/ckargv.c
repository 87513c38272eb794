#include "ckargv.h"
#include <stdlib.h>   /* __GLIBC__ */

#if defined(__linux__) && defined(__GLIBC__)

/* glibc calls each .init_array entry with (argc, argv, envp), before any other initialiser
   could read `CommandLine`; the pointers are the process's own, valid for its life. */
static int ckargv_count;
static char **ckargv_vector;

static void ckargv_capture(int argc, char **argv, char **envp) {
    (void)envp;
    ckargv_count = argc;
    ckargv_vector = argv;
}

__attribute__((section(".init_array"), used))
static void (*const ckargv_entry)(int, char **, char **) = ckargv_capture;

/* The Swift runtime's internal entry (stdlib/public/CommandLineSupport/CommandLine.cpp:
   `SWIFT_CC(swift) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen)`), called by the
   standard library's `CommandLine`. A release link finds it here first, so the archive member
   defining the runtime's version is not extracted; a change of its signature in a new
   toolchain shows as a duplicate symbol or wrong `CommandLine.arguments`, which every
   end-to-end test passes through. */
__attribute__((swiftcall, visibility("hidden")))
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    static char *empty[] = { 0 };
    if (!ckargv_vector) { *outArgLen = 0; return empty; }
    *outArgLen = ckargv_count;
    return ckargv_vector;
}

#endif
