// Linux interfaces that Swift's Glibc module does not export: epoll and eventfd for the HTTP
// event loops, inotify for watching the themes folder.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
