// Linux interfaces that Swift's Glibc module does not export: epoll, eventfd and sendfile for the HTTP
// event loops, inotify for watching the themes folder, and the calling thread's id (for giving
// worker threads a lower priority than the event loops), and glibc's malloc tuning.
#include <malloc.h>
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

// Blocks of at least `bytes` get mappings of their own, returned to the system when freed. glibc
// starts at 128 KiB but raises the threshold (up to 32 MiB) each time such a block is freed, after
// which decoded bitmaps come from the heap and their memory stays in the process.
static inline int themed_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}
