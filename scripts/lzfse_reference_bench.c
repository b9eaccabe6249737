/* Times Apple's reference LZFSE decoder (lzfse_decode_buffer, built from the lzfse sources that
 * the PyPI `lzfse` sdist ships) on the payload dump written by `themed-bench lzfse`: records of
 * u32 compressed length, u32 decoded length, bytes. Prints one JSON line like themed-bench.
 * Built and run by scripts/bench.py; not part of the product. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lzfse.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s DUMP\n", argv[0]); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(size);
    if (fread(data, 1, size, f) != (size_t)size) { perror("read"); return 1; }
    fclose(f);
    size_t maxOut = 0, count = 0;
    for (long p = 0; p + 8 <= size;) {
        uint32_t in, out;
        memcpy(&in, data + p, 4); memcpy(&out, data + p + 4, 4);
        if (out > maxOut) maxOut = out;
        p += 8 + in; count++;
    }
    uint8_t *output = malloc(maxOut + 1);
    void *scratch = malloc(lzfse_decode_scratch_size());
    double best = 1e30;
    size_t total = 0;
    for (int round = 0; round < 5; round++) {
        total = 0;
        double start = now();
        for (long p = 0; p + 8 <= size;) {
            uint32_t in, out;
            memcpy(&in, data + p, 4); memcpy(&out, data + p + 4, 4);
            /* One byte of room more than expected, so a short buffer cannot hide a size error. */
            size_t got = lzfse_decode_buffer(output, out + 1, data + p + 8, in, scratch);
            if (got != out) { fprintf(stderr, "payload at %ld: %zu bytes, expected %u\n", p, got, out); return 1; }
            total += got;
            p += 8 + in;
        }
        double elapsed = now() - start;
        if (elapsed < best) best = elapsed;
    }
    printf("{\"benchmark\":\"lzfse-c\",\"items\":%zu,\"bytes\":%zu,\"seconds\":%f,\"mbPerSecond\":%f}\n",
           count, total, best, total / best / 1e6);
    return 0;
}
