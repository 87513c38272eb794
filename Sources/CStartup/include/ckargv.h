#ifndef CKARGV_H
#define CKARGV_H

/* The command line as the C library hands it to the executable's initialisers: the Swift
   runtime's `_swift_stdlib_getUnsafeArgvArgc` (what `CommandLine` reads), defined here so the
   runtime's own (CommandLine.cpp.o, whose initialiser reads /proc/self/maps line by line with
   sscanf to find argv on the stack: 0.13M instructions a start) is never linked. ckargv.c. */

#endif
