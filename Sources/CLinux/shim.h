// Linux interfaces that Swift's Glibc module does not export: epoll, eventfd and sendfile for the HTTP
// event loops, inotify for watching the themes folder, and the calling thread's id (for giving
// worker threads a lower priority than the event loops), a thread's scheduling slice, glibc's
// malloc tuning, writing a release's files to disk together, and resolving a path's links in one walk.
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <unistd.h>

// Linux's policy numbers; <sched.h> names them only with _GNU_SOURCE.
#ifndef SCHED_BATCH
#define SCHED_BATCH 3
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif

// Names the calling thread where top -H and perf read it (the first 15 bytes). Foundation's
// setter drops a name given before start(), and once in a full test run missed one given from
// inside the thread.
static inline void themed_name_this_thread(const char *name) {
    prctl(PR_SET_NAME, name, 0, 0, 0);
}

// Puts the calling thread below the event loops: SCHED_BATCH at `niceness`, whose wakeups never
// preempt a running thread (a loop that hands work to a worker keeps its CPU; a woken nice-10
// worker took it from the loop for milliseconds under EEVDF), or from 19 on SCHED_IDLE, which any
// other thread's wakeup preempts at once. Both keep a share of the CPU under load.
static inline int themed_lower_thread_priority(int niceness) {
    pid_t thread = (pid_t)syscall(SYS_gettid);
    struct sched_param none = { .sched_priority = 0 };
    sched_setscheduler(thread, niceness >= 19 ? SCHED_IDLE : SCHED_BATCH, &none);
    return setpriority(PRIO_PROCESS, (id_t)thread, niceness);
}

// Asks the kernel's fair scheduler (EEVDF, Linux 6.12 on) for the shortest slice, 0.1 ms, for the
// calling thread and the threads it starts later: a thread that wakes for a short burst of work is
// then due sooner, and preempts a thread with a longer slice when it wakes, instead of waiting for
// every other runnable task's slice. Its share of the CPU is unchanged: the slice sets how soon,
// not how much. Policy and niceness are kept. An older kernel accepts and ignores it; 0 on
// success, -1 with errno. (glibc before 2.41 declares neither the call nor its struct.)
struct themed_sched_attr {
    unsigned int size, policy;
    unsigned long long flags;
    int nice;
    unsigned int priority;
    unsigned long long runtime, deadline, period;
    unsigned int utilization_min, utilization_max;
};
static inline int themed_request_short_slices(void) {
    struct themed_sched_attr attributes = { 0 };
    if (syscall(SYS_sched_getattr, 0, &attributes, sizeof attributes, 0) != 0) return -1;
    attributes.size = sizeof attributes;
    attributes.runtime = 100000; // nanoseconds: the kernel's shortest
    return (int)syscall(SYS_sched_setattr, 0, &attributes, 0);
}

// Blocks of at least `bytes` get mappings of their own, returned to the system when freed. glibc
// starts at 128 KiB but raises the threshold (up to 32 MiB) each time such a block is freed, after
// which decoded bitmaps come from the heap and their memory stays in the process.
static inline int themed_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

// Free memory at the top of a heap up to `bytes` stays in the process. Fixing the mmap threshold
// (above) also fixes this one at glibc's 128 KiB, and then every answer larger than that (a
// palette's JSON, its rows) grew the heap and gave it back: two system calls and a page fault a
// page, each request. What the heap holds past it goes back with the explicit trims.
static inline int themed_fix_trim_threshold(int bytes) {
    return mallopt(M_TRIM_THRESHOLD, bytes);
}

// At most `count` malloc arenas. glibc makes up to eight per core, one for each thread that meets
// contention, and memory freed in one thread's arena is not reused by the others: after a burst of
// work on many threads (warming, a sweep) the process keeps it all.
static inline int themed_limit_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}

// Gives the heap's free pages back to the system (glibc keeps what a burst of work freed, in
// every thread's arena). Returns 1 when some memory was released.
static inline int themed_trim_heap(void) {
    return malloc_trim(0);
}

// Swaps two paths in one step (renameat2 with RENAME_EXCHANGE): a theme folder replaced by a
// new release is never missing, not even for a moment. 0 on success, -1 with errno.
#include <fcntl.h>
static inline int themed_exchange_paths(const char *first, const char *second) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 2 /* RENAME_EXCHANGE */);
}

// Starts writing a file's dirty pages to disk and returns without waiting (sync_file_range with
// SYNC_FILE_RANGE_WRITE, which glibc declares only with _GNU_SOURCE): the fdatasync that follows
// for a folder's files then finds their writes under way and their blocks allocated, so one
// journal commit covers them all. 0 on success, -1 with errno.
static inline int themed_start_writeback(int descriptor) {
    return (int)syscall(SYS_sync_file_range, descriptor, (long long)0, (long long)0, 2u /* SYNC_FILE_RANGE_WRITE */);
}

// Raises the soft limit on open files to the hard one and returns it (-1 on failure): each event
// stream is an open file, and the soft default (1024 on many systems) would cap them long before
// maxConnections. nginx (worker_rlimit_nofile) and Go's runtime do the same.
static inline long themed_raise_open_file_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    }
    return (long)limit.rlim_cur;
}

// <fcntl.h> names it only with _GNU_SOURCE; the value of x86-64 and arm64.
#ifndef O_PATH
#define O_PATH 010000000
#endif

// The path `path` reaches once every link in it is resolved, into `out` (NUL-terminated): its
// length, or -1 when it cannot be told so (a path that does not exist, no /proc). The kernel walks
// the path once (an O_PATH open: nothing is read, no device or FIFO opened) and /proc names where it
// arrived; resolving component by component costs a system call each, and each walks the prefix again.
static inline long themed_resolve_path(const char *path, char *out, size_t size) {
    int descriptor = open(path, O_PATH | O_CLOEXEC);
    if (descriptor < 0) return -1;
    char link[32];
    snprintf(link, sizeof link, "/proc/self/fd/%d", descriptor);
    ssize_t length = readlink(link, out, size - 1);
    close(descriptor);
    if (length <= 0 || (size_t)length >= size - 1) return -1;
    out[length] = 0;
    return length;
}
