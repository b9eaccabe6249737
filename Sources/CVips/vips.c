#include "CVips.h"
#include "vips_abi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The functions of libvips, found once by themed_vips_start; every other function here is only
// called after it succeeded (VipsCoder checks).
#define THEMED_VIPS_POINTER(name, type) __typeof__(type) *name;
static struct { THEMED_VIPS_FUNCTIONS(THEMED_VIPS_POINTER) } vips;

static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;
static int started = -1;
static char failure[512];

static void load(void) {
    // Local: libvips' symbols are reached through the handle only, never bound by name into
    // what else the process loads.
    void *library = dlopen(THEMED_VIPS_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "libvips could not be loaded: %s", dlerror());
        return;
    }
#define THEMED_VIPS_FIND(name, type) \
    if (!(vips.name = (__typeof__(type) *)dlsym(library, #name))) { \
        snprintf(failure, sizeof failure, "libvips has no %s", #name); \
        return; \
    }
    THEMED_VIPS_FUNCTIONS(THEMED_VIPS_FIND)
    if (vips.vips_init("themed") != 0) {
        snprintf(failure, sizeof failure, "libvips did not start: %s", vips.vips_error_buffer());
        return;
    }
    vips.vips_cache_set_max(0);
    vips.vips_concurrency_set(1);
    started = 0;
}

int themed_vips_start(void) {
    pthread_once(&loaded_once, load);
    return started;
}

VipsImage *themed_vips_load(const void *buffer, size_t length) {
    return vips.vips_image_new_from_buffer(buffer, length, "", "fail_on", THEMED_VIPS_FAIL_ON_ERROR, NULL);
}

VipsImage *themed_vips_load_vector(const void *buffer, size_t length, int is_pdf, double scale) {
    VipsImage *out = NULL;
    int failed = is_pdf
        ? vips.vips_pdfload_buffer((void *)buffer, length, &out, "scale", scale, "fail_on", THEMED_VIPS_FAIL_ON_ERROR, NULL)
        : vips.vips_svgload_buffer((void *)buffer, length, &out, "scale", scale, "fail_on", THEMED_VIPS_FAIL_ON_ERROR, NULL);
    return failed ? NULL : out;
}

VipsImage *themed_vips_decode(VipsImage *in) { return vips.vips_image_copy_memory(in); }

int themed_vips_pages(VipsImage *image) { return vips.vips_image_get_n_pages(image); }
int themed_vips_width(const VipsImage *image) { return vips.vips_image_get_width(image); }
int themed_vips_height(const VipsImage *image) { return vips.vips_image_get_height(image); }

// Shrinking goes straight to vips_reduce: vips_resize's shrink-then-reduce pipeline costs about
// eight times as much for the same kernel (1024 -> 256 px: 43 ms against 5 ms on one thread).
VipsImage *themed_vips_resize(VipsImage *in, double horizontal, double vertical) {
    VipsImage *out = NULL;
    int failed = horizontal <= 1.0 && vertical <= 1.0
        ? vips.vips_reduce(in, &out, 1.0 / horizontal, 1.0 / vertical, "kernel", THEMED_VIPS_KERNEL_LANCZOS3, NULL)
        : vips.vips_resize(in, &out, horizontal, "vscale", vertical, "kernel", THEMED_VIPS_KERNEL_LANCZOS3, NULL);
    return failed ? NULL : out;
}

VipsImage *themed_vips_crop(VipsImage *in, int left, int top, int width, int height) {
    VipsImage *out = NULL;
    return vips.vips_extract_area(in, &out, left, top, width, height, NULL) ? NULL : out;
}

VipsImage *themed_vips_to_srgb(VipsImage *in, int from_display_p3) {
    VipsImage *out = NULL;
    int failed;
    if (vips.vips_image_get_typeof(in, THEMED_VIPS_META_ICC_NAME))
        failed = vips.vips_icc_transform(in, &out, "srgb", "embedded", 1, "intent", THEMED_VIPS_INTENT_PERCEPTUAL, NULL);
    else if (from_display_p3)
        failed = vips.vips_icc_transform(in, &out, "srgb", "input_profile", "p3", "intent", THEMED_VIPS_INTENT_PERCEPTUAL, NULL);
    else
        failed = vips.vips_colourspace(in, &out, THEMED_VIPS_INTERPRETATION_sRGB, NULL);
    return failed ? NULL : out;
}

VipsImage *themed_vips_flatten(VipsImage *in) {
    if (!vips.vips_image_hasalpha(in)) { vips.g_object_ref(in); return in; }
    VipsImage *out = NULL;
    VipsArrayDouble *white = vips.vips_array_double_newv(3, 255.0, 255.0, 255.0);
    int failed = vips.vips_flatten(in, &out, "background", white, NULL);
    vips.vips_area_unref((VipsArea *)white);
    return failed ? NULL : out;
}

int themed_vips_save(VipsImage *in, int format, int quality, int lossless, int effort, void **buffer, size_t *length) {
    switch (format) {
    case THEMED_VIPS_PNG: return vips.vips_pngsave_buffer(in, buffer, length, "strip", 1, NULL);
    case THEMED_VIPS_WEBP: return vips.vips_webpsave_buffer(in, buffer, length, "Q", quality, "lossless", lossless, "effort", effort, "strip", 1, NULL);
    case THEMED_VIPS_AVIF: return vips.vips_heifsave_buffer(in, buffer, length, "Q", quality, "lossless", lossless, "effort", effort,
                                                           "compression", THEMED_VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "strip", 1, NULL);
    case THEMED_VIPS_JPEG: return vips.vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", 1, NULL);
    default: return -1;
    }
}

const char *themed_vips_error(void) { return started == 0 ? vips.vips_error_buffer() : failure; }
void themed_vips_clear_error(void) { if (started == 0) vips.vips_error_clear(); }
void themed_vips_release(VipsImage *image) { if (image) vips.g_object_unref(image); }
void themed_vips_free(void *buffer) { vips.g_free(buffer); }
