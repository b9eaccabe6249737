// Linux interfaces that Swift's Glibc module does not export: epoll, eventfd and sendfile for the HTTP
// event loops, inotify for watching the themes folder, and the calling thread's id (for giving
// worker threads a lower priority than the event loops).
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int themed_lower_thread_priority(int niceness) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), niceness);
}
