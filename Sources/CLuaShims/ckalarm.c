/* The process's interval timer and signal mask as the watchdog (ckwatchdog.c) arms them:
   system calls only, nothing of Lua. */
#include "ckshims.h"
#include "ckinternal.h"
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

/* Whether the timer may be running: ckrun test clears the limit around every test, and with no
   limit set (its default) each clear was a system call for a timer that was not running (40,900
   of them on 10,000 tests). A forked child starts with no timer, so a stale 1 only costs a call. */
static volatile sig_atomic_t armed = 0;

/* SIGALRM after `first` seconds (at least a microsecond), then every `interval`. */
void ckalarm_set(double first, double interval) {
    armed = 1;
    struct itimerval t;
    memset(&t, 0, sizeof t);
    t.it_value.tv_sec = (time_t)first;
    t.it_value.tv_usec = (suseconds_t)((first - (double)(time_t)first) * 1e6);
    if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0) t.it_value.tv_usec = 1;
    t.it_interval.tv_sec = (time_t)interval;
    setitimer(ITIMER_REAL, &t, NULL);
}

void ckalarm_stop(void) {
    if (!armed) return;
    armed = 0;
    struct itimerval off = {0};
    setitimer(ITIMER_REAL, &off, NULL);
}

/* Only the timer's own ticks reach `on_tick` (ITIMER_REAL's signal comes from the kernel,
   SI_KERNEL): a SIGALRM another process sends (kill -ALRM) was taken for the time limit
   (atk-safety3 08). It gets lua5.4's default action instead: the process ends by it (142). */
static void (*volatile tick_handler)(int);

static void on_alarm_signal(int sig, siginfo_t *info, void *context) {
    (void)context;
    if (info != NULL && info->si_code != SI_KERNEL) {
        cksignals_handle(SIGALRM, SIG_DFL, 0, NULL);
        raise(SIGALRM);   /* blocked in its handler: delivered, by the default action, on return */
        return;
    }
    tick_handler(sig);
}

void ckalarm_handle(void (*on_tick)(int)) {
    tick_handler = on_tick;
    cksignals_handle_info(SIGALRM, on_alarm_signal, SA_RESTART);
}

/* A parent may have left the signal blocked. */
void ckalarm_unblock(int sig) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}
