/* Many Server-Sent Event clients in one process, for the stream tests and benchmarks
 * (scripts/cluster.py): N connections to GET /events, each parsed as EventSource does and
 * reconnected as ThemedClient does (the server's retry:, doubled per failure, with jitter,
 * resuming with Last-Event-ID).
 *
 *   stream-client --port 8080 --streams 9000 --out events.log --status status.txt
 *                 [--host 127.0.0.1] [--sources 32] [--in-flight 200] [--stall]
 *
 * Every event a stream receives is one line of --out: "stream time_ns type id theme", the time
 * from CLOCK_MONOTONIC (Python's time.monotonic_ns). --status is rewritten every 100 ms with
 * "open N connecting N reconnects N events N refused N". Connections come from 127.0.0.2 onwards
 * (--sources addresses), so that many streams do not run out of one address's ports.
 * --stall sends the request and never reads (a tiny receive buffer): a stalled reader.
 * SIGTERM or SIGINT writes what is buffered and exits. Build: cc -O2 -o stream-client stream-client.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum phase { IDLE, CONNECTING, HEAD, BODY, WAITING };

struct stream {
    int fd;
    enum phase phase;
    char last_id[64];
    char type[48];
    char id[64];
    char theme[64];
    char line[4096];
    size_t line_length;
    int retry_ms;
    int failures;
    int64_t reconnect_at;
    int saw_status;
};

static struct stream *streams;
static int stream_count, source_count = 32, in_flight_limit = 200, stall;
static const char *host = "127.0.0.1", *out_path, *status_path;
static int port = 8080, epoll_fd;
static FILE *out;
static long open_count, connecting_count, reconnects, event_count, refused;
static volatile sig_atomic_t stopping;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void on_signal(int number) { (void)number; stopping = 1; }

static void start(int index) {
    struct stream *s = &streams[index];
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) { s->phase = WAITING; s->reconnect_at = now_ns() + 1000000000; return; }
    if (stall) {
        int small = 1024;
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    }
    struct sockaddr_in source = {.sin_family = AF_INET};
    source.sin_addr.s_addr = htonl(0x7f000002 + (uint32_t)(index % source_count));
    bind(fd, (struct sockaddr *)&source, sizeof source);
    struct sockaddr_in target = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &target.sin_addr);
    s->fd = fd;
    s->phase = CONNECTING;
    s->line_length = 0;
    s->saw_status = 0;
    s->type[0] = s->id[0] = s->theme[0] = 0;
    connecting_count++;
    if (connect(fd, (struct sockaddr *)&target, sizeof target) < 0 && errno != EINPROGRESS) {
        close(fd);
        connecting_count--;
        s->fd = -1;
        s->phase = WAITING;
        s->reconnect_at = now_ns() + 100000000;
        return;
    }
    struct epoll_event interest = {.events = EPOLLOUT, .data.u32 = (uint32_t)index};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &interest);
}

/* Closed by the server or failed: reconnect after the server's retry (or 250 ms), doubled per
 * failure in a row, times a random 0.5-1.0. */
static void lost(int index) {
    struct stream *s = &streams[index];
    if (s->phase == CONNECTING) connecting_count--;
    if (s->phase == HEAD || s->phase == BODY) open_count--;
    if (s->phase == CONNECTING || s->phase == HEAD) refused++;
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, s->fd, NULL);
    close(s->fd);
    s->fd = -1;
    s->failures = s->phase == BODY ? 1 : s->failures + 1;
    s->phase = WAITING;
    int base = s->retry_ms > 0 ? s->retry_ms : 250;
    int shift = s->failures > 6 ? 6 : s->failures - 1;
    int64_t delay = (int64_t)base << shift;
    if (delay > 30000) delay = 30000;
    delay = delay * (500 + rand() % 501) / 1000;
    s->reconnect_at = now_ns() + delay * 1000000;
    reconnects++;
}

static void copy_field(char *target, size_t size, const char *value) {
    size_t length = strlen(value);
    if (length >= size) length = size - 1;
    memcpy(target, value, length);
    target[length] = 0;
}

static void dispatch(int index) {
    struct stream *s = &streams[index];
    if (s->id[0]) copy_field(s->last_id, sizeof s->last_id, s->id);
    if (s->type[0]) {
        fprintf(out, "%d %lld %s %s %s\n", index, (long long)now_ns(), s->type, s->id[0] ? s->id : "-", s->theme[0] ? s->theme : "-");
        event_count++;
    }
    s->type[0] = s->id[0] = s->theme[0] = 0;
}

static void line(int index) {
    struct stream *s = &streams[index];
    char *text = s->line;
    if (s->line_length > 0 && text[s->line_length - 1] == '\r') s->line_length--;
    text[s->line_length] = 0;
    if (s->phase == HEAD) {
        if (!s->saw_status) {
            s->saw_status = 1;
            if (strncmp(text, "HTTP/1.1 200", 12) != 0 && strncmp(text, "HTTP/1.0 200", 12) != 0) s->phase = IDLE; /* refused */
        } else if (s->line_length == 0) {
            s->phase = BODY;
            s->failures = 0;
        }
        return;
    }
    if (s->line_length == 0) { dispatch(index); return; }
    if (!strncmp(text, "event: ", 7)) copy_field(s->type, sizeof s->type, text + 7);
    else if (!strncmp(text, "id: ", 4)) copy_field(s->id, sizeof s->id, text + 4);
    else if (!strncmp(text, "retry: ", 7)) s->retry_ms = atoi(text + 7);
    else if (!strncmp(text, "data: ", 6)) {
        const char *theme = strstr(text, "\"theme\":\"");
        if (theme) {
            theme += 9;
            const char *end = strchr(theme, '"');
            size_t length = end ? (size_t)(end - theme) : 0;
            if (length >= sizeof s->theme) length = sizeof s->theme - 1;
            memcpy(s->theme, theme, length);
            s->theme[length] = 0;
        }
    }
}

static void readable(int index) {
    struct stream *s = &streams[index];
    char buffer[16384];
    for (;;) {
        ssize_t count = read(s->fd, buffer, sizeof buffer);
        if (count == 0) { lost(index); return; }
        if (count < 0) {
            if (errno == EAGAIN) return;
            if (errno == EINTR) continue;
            lost(index);
            return;
        }
        for (ssize_t i = 0; i < count; i++) {
            if (buffer[i] == '\n') {
                line(index);
                s->line_length = 0;
                if (s->phase == IDLE) { s->phase = HEAD; lost(index); return; }
            } else if (s->line_length < sizeof s->line - 1) {
                s->line[s->line_length++] = buffer[i];
            }
        }
    }
}

static void connected(int index) {
    struct stream *s = &streams[index];
    int error = 0;
    socklen_t size = sizeof error;
    getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &error, &size);
    if (error) { lost(index); return; }
    connecting_count--;
    open_count++;
    char request[256];
    int length = s->last_id[0]
        ? snprintf(request, sizeof request, "GET /events HTTP/1.1\r\nHost: themed\r\nAccept: text/event-stream\r\nLast-Event-ID: %s\r\n\r\n", s->last_id)
        : snprintf(request, sizeof request, "GET /events HTTP/1.1\r\nHost: themed\r\nAccept: text/event-stream\r\n\r\n");
    if (write(s->fd, request, (size_t)length) != length) { s->phase = HEAD; lost(index); return; }
    s->phase = HEAD;
    struct epoll_event interest = {.events = stall ? 0 : EPOLLIN | EPOLLRDHUP, .data.u32 = (uint32_t)index};
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, s->fd, &interest);
}

static void write_status(void) {
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp", status_path);
    FILE *file = fopen(temporary, "w");
    if (!file) return;
    fprintf(file, "open %ld connecting %ld reconnects %ld events %ld refused %ld\n", open_count, connecting_count, reconnects, event_count, refused);
    fclose(file);
    rename(temporary, status_path);
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc || (i < argc && !strcmp(argv[i], "--stall")); i++) {
        if (!strcmp(argv[i], "--stall")) stall = 1;
        else if (!strcmp(argv[i], "--host")) host = argv[++i];
        else if (!strcmp(argv[i], "--port")) port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--streams")) stream_count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sources")) source_count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--in-flight")) in_flight_limit = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out")) out_path = argv[++i];
        else if (!strcmp(argv[i], "--status")) status_path = argv[++i];
        else { fprintf(stderr, "stream-client: unknown argument %s\n", argv[i]); return 2; }
    }
    if (stream_count <= 0 || !out_path || !status_path || source_count <= 0) {
        fprintf(stderr, "usage: stream-client --streams N --out FILE --status FILE [--host H] [--port P] [--sources K] [--in-flight K] [--stall]\n");
        return 2;
    }
    srand((unsigned)now_ns());
    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    out = fopen(out_path, "w");
    if (!out) { perror(out_path); return 2; }
    streams = calloc((size_t)stream_count, sizeof *streams);
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    int next_new = 0;
    int64_t last_status = 0;
    struct epoll_event ready[1024];
    while (!stopping) {
        int64_t now = now_ns();
        /* New streams and reconnections, at most in_flight_limit connects at a time. */
        for (int i = 0; i < stream_count && connecting_count < in_flight_limit; i++) {
            struct stream *s = &streams[i];
            if (i >= next_new) { if (i == next_new) { next_new++; start(i); } continue; }
            if (s->phase == WAITING && s->reconnect_at <= now) start(i);
        }
        int count = epoll_wait(epoll_fd, ready, 1024, 10);
        for (int k = 0; k < count; k++) {
            int index = (int)ready[k].data.u32;
            struct stream *s = &streams[index];
            if (s->fd < 0) continue;
            if (s->phase == CONNECTING) connected(index);
            else if (ready[k].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) readable(index);
        }
        if (now - last_status > 100000000) { write_status(); last_status = now; }
    }
    fflush(out);
    write_status();
    return 0;
}
