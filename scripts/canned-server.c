/*
 * The machine's ceiling for `make bench-http`: an HTTP/1.1 server that answers every request
 * with the same bytes and does nothing else (no parsing beyond finding the blank line that ends
 * a request head). Whatever rate it reaches under wrk is what loopback, the kernel and the
 * client leave for any server on this machine; themed's cached answers are measured against it.
 *
 * One epoll loop per thread, each with its own listening socket (SO_REUSEPORT), as many threads
 * as the second argument asks. The response is read from a file: with a content type, the file
 * is the body and gets a short head (status, type, ETag, Cache-Control, length); without one, the
 * file is a whole response (head and body) sent byte for byte, e.g. a copy of themed's own.
 *
 * usage: canned-server PORT THREADS FILE [CONTENT_TYPE]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_EVENTS 256
#define MAX_FDS 65536
#define INBOX 16384

static char *response;
static size_t response_length;
static int port;

/* Bytes of an unfinished request head, per connection (requests may arrive split). */
static char *partial[MAX_FDS];
static size_t partial_length[MAX_FDS];

static int listener(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &yes, sizeof yes);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 4096) != 0) {
        perror("bind/listen");
        exit(2);
    }
    return fd;
}

/* Counts complete request heads in the connection's bytes and keeps the unfinished tail. */
static int complete_requests(int fd, const char *bytes, size_t count) {
    char *buffer = partial[fd];
    size_t length = partial_length[fd];
    if (length + count > INBOX) return -1;
    if (!buffer) buffer = partial[fd] = malloc(INBOX);
    memcpy(buffer + length, bytes, count);
    length += count;
    int requests = 0;
    size_t start = 0;
    for (size_t i = 3; i < length; i++) {
        if (buffer[i] == '\n' && buffer[i - 1] == '\r' && buffer[i - 2] == '\n' && buffer[i - 3] == '\r' && i >= start + 3) {
            requests++;
            start = i + 1;
        }
    }
    memmove(buffer, buffer + start, length - start);
    partial_length[fd] = length - start;
    return requests;
}

static void close_connection(int fd) {
    free(partial[fd]);
    partial[fd] = NULL;
    partial_length[fd] = 0;
    close(fd);
}

static void *serve(void *unused) {
    (void)unused;
    int listen_fd = listener();
    int poll = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listen_fd};
    epoll_ctl(poll, EPOLL_CTL_ADD, listen_fd, &event);
    struct epoll_event events[MAX_EVENTS];
    char inbox[INBOX];
    char *outbox = malloc(response_length * 64);
    for (;;) {
        int ready = epoll_wait(poll, events, MAX_EVENTS, -1);
        for (int i = 0; i < ready; i++) {
            int fd = events[i].data.fd;
            if (fd == listen_fd) {
                int client;
                while ((client = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (client >= MAX_FDS) { close(client); continue; }
                    int yes = 1;
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
                    struct epoll_event client_event = {.events = EPOLLIN, .data.fd = client};
                    epoll_ctl(poll, EPOLL_CTL_ADD, client, &client_event);
                }
                continue;
            }
            ssize_t count = recv(fd, inbox, sizeof inbox, 0);
            if (count <= 0) {
                if (count < 0 && (errno == EAGAIN || errno == EINTR)) continue;
                close_connection(fd);
                continue;
            }
            int requests = complete_requests(fd, inbox, (size_t)count);
            if (requests < 0) { close_connection(fd); continue; }
            /* Pipelined requests are answered in one send, as themed does. */
            if (requests > 64) requests = 64;
            for (int r = 0; r < requests; r++) memcpy(outbox + r * response_length, response, response_length);
            if (requests > 0) send(fd, outbox, response_length * requests, MSG_NOSIGNAL);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: canned-server PORT THREADS FILE [CONTENT_TYPE]\n");
        return 2;
    }
    port = atoi(argv[1]);
    int threads = atoi(argv[2]);
    FILE *file = fopen(argv[3], "rb");
    if (!file) { perror(argv[3]); return 2; }
    fseek(file, 0, SEEK_END);
    long body_length = ftell(file);
    fseek(file, 0, SEEK_SET);
    char head[512];
    int head_length = 0;
    if (argc == 5) {
        head_length = snprintf(head, sizeof head,
                               "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nETag: \"0123456789abcdef0123456789abcdef\"\r\n"
                               "Cache-Control: public, max-age=60\r\nContent-Length: %ld\r\n\r\n",
                               argv[4], body_length);
    }
    response_length = (size_t)head_length + (size_t)body_length;
    response = malloc(response_length);
    memcpy(response, head, (size_t)head_length);
    if (fread(response + head_length, 1, (size_t)body_length, file) != (size_t)body_length) { perror("read"); return 2; }
    fclose(file);
    pthread_t ids[64];
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    for (int t = 0; t < threads; t++) pthread_create(&ids[t], NULL, serve, NULL);
    for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
    return 0;
}
