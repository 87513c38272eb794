#include <fcntl.h>
#include <unistd.h>

/* Descriptors 0, 1 and 2 closed at start (`ckrun app.lua <&-`, as some launchers do) would be
   taken by the first descriptor ckrun opens itself (the signal pipe), and stdin would then
   read ckrun's own pipe forever. Each closed one is occupied by /dev/null opened for the other
   direction, before any initialiser opens anything: reading a closed stdin fails with EBADF and
   writing a closed stdout or stderr too, just as the closed descriptor did (so `ckrun <&-` says
   it cannot read stdin, as lua5.4 does, an app's input ends, and output reports [cannotWrite]). */
__attribute__((constructor(101)))
static void ckstdfds_occupy(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1) continue;
        int opened = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (opened != fd && opened >= 0) {
            dup2(opened, fd);
            close(opened);
        }
    }
}
