#include <fcntl.h>
#include <unistd.h>

/* Descriptors 0, 1 and 2 closed at start (`ckrun app.lua <&-`, as some launchers do) would be
   taken by the first descriptor ckrun opens itself (the signal pipe), and stdin would then
   read ckrun's own pipe forever. Each closed one is occupied by /dev/null, opened read-only,
   before any initialiser opens anything: reading it is EOF, writing it fails with EBADF just
   as a closed descriptor does (so output still reports [cannotWrite]). */
__attribute__((constructor(101)))
static void ckstdfds_occupy(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1) continue;
        int opened = open("/dev/null", O_RDONLY);
        if (opened != fd && opened >= 0) {
            dup2(opened, fd);
            close(opened);
        }
    }
}
