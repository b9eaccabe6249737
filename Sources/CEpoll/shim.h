// Linux's epoll and eventfd, which Swift's Glibc module does not export.
#include <sys/epoll.h>
#include <sys/eventfd.h>
