/* A fault of the process's own (Lua runs bytecode unverified, as lua5.4 does: a corrupted chunk
   a script loaded can segfault) ends the process as it did, by the Swift runtime's backtracer
   and with the signal's status; first one line says what was running (the test file of a serial
   `ckrun test`, the script of a plain run), rendered beforehand, so the handler only writes it:
   async-signal-safe (write(2), sigaction, raise). Then the action found at start (the
   backtracer's) is put back: a fault the instruction raises again reaches it as it would have;
   a signal raised (abort) is raised again. */
#include "ckshims.h"
#include "ckinternal.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS };
#define FAULTS ((int)(sizeof faults / sizeof faults[0]))
static struct sigaction previous[FAULTS];
static char note[2048];
static volatile sig_atomic_t note_length = 0, note_cut = 0;
/* The full name of the test a serial run started last (a Lua string its element keeps while the
   file runs), NULL when none: read by the handler, stored per test (ckrunner.c's clock). */
static const char *volatile test_name = NULL;

static void write_all(const char *text, size_t length) {
    while (length > 0) {
        ssize_t n = write(2, text, length);
        if (n <= 0) return;
        text += n;
        length -= (size_t)n;
    }
}

static void on_fault(int sig, siginfo_t *info, void *context) {
    (void)context;
    size_t length = (size_t)note_length;
    if (length > 0) {
        char number[24];
        int at = (int)sizeof number;
        unsigned value = (unsigned)sig;
        do { number[--at] = (char)('0' + value % 10); value /= 10; } while (value > 0 && at > 0);
        static const char head[] = "[crashed] signal ";
        write_all("\n", 1);
        cklastresort_write_program(2);   /* argv[0], as every error (check-layout) */
        write_all(head, sizeof head - 1);
        write_all(number + at, sizeof number - (size_t)at);
        size_t cut = (size_t)note_cut;
        write_all(note, cut);
        const char *test = test_name;
        if (test != NULL) {
            static const char in_test[] = " (in or after the test \"", closing[] = "\")";
            write_all(in_test, sizeof in_test - 1);
            write_all(test, strnlen(test, 400));
            write_all(closing, sizeof closing - 1);
        }
        write_all(note + cut, length - cut);
    }
    for (int i = 0; i < FAULTS; i++) {
        if (faults[i] == sig) sigaction(sig, &previous[i], NULL);
    }
    if (info == NULL || info->si_code <= 0) raise(sig);   /* sent, not a fault: raised again */
}

void ckcrash_install(void) {
    for (int i = 0; i < FAULTS; i++) {
        if (sigaction(faults[i], NULL, &previous[i]) != 0 || previous[i].sa_handler == SIG_IGN) continue;
        cksignals_handle_info(faults[i], on_fault, SA_ONSTACK);
    }
}

void ckcrash_note(const char *text, size_t length, size_t cut) {
    note_length = 0;
    test_name = NULL;
    if (length > sizeof note) length = sizeof note;
    memcpy(note, text, length);
    note_cut = (sig_atomic_t)(cut < length ? cut : length);
    note_length = (sig_atomic_t)length;
}

void ckcrash_note_test(const char *name) { test_name = name; }
