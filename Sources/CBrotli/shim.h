#include <brotli/encode.h>
#include <brotli/decode.h>
