// libvips (Debian's libvips-dev) for the image coders. libvips' calls take their options as C
// variadic arguments, which Swift cannot pass: each wrapper here names the options it sets.
#include <vips/vips.h>

// Once per process: no operation cache (results are cached as blobs), one thread per
// operation (the worker pool runs operations side by side).
static inline int themed_vips_start(void) {
    if (vips_init("themed") != 0) return -1;
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    return 0;
}

// The header of an image in memory; pixels are read when first asked for, from `buffer`, which
// must outlive the image. Errors stop the decode rather than give a partial image.
static inline VipsImage *themed_vips_load(const void *buffer, size_t length) {
    return vips_image_new_from_buffer(buffer, length, "", "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

// A PDF (first page) or SVG drawn at `scale` times its size in points.
static inline VipsImage *themed_vips_load_vector(const void *buffer, size_t length, int is_pdf, double scale) {
    VipsImage *out = NULL;
    int failed = is_pdf
        ? vips_pdfload_buffer((void *)buffer, length, &out, "scale", scale, "fail_on", VIPS_FAIL_ON_ERROR, NULL)
        : vips_svgload_buffer((void *)buffer, length, &out, "scale", scale, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    return failed ? NULL : out;
}

// The pixels decoded once into memory: a resize reads source lines more than once, and would
// otherwise decode them again.
static inline VipsImage *themed_vips_decode(VipsImage *in) { return vips_image_copy_memory(in); }

static inline int themed_vips_pages(VipsImage *image) { return vips_image_get_n_pages(image); }

// Lanczos-3 resampling by separate horizontal and vertical factors. Shrinking goes straight to
// vips_reduce: vips_resize's shrink-then-reduce pipeline costs about eight times as much for
// the same kernel (1024 -> 256 px: 43 ms against 5 ms on one thread).
static inline VipsImage *themed_vips_resize(VipsImage *in, double horizontal, double vertical) {
    VipsImage *out = NULL;
    int failed = horizontal <= 1.0 && vertical <= 1.0
        ? vips_reduce(in, &out, 1.0 / horizontal, 1.0 / vertical, "kernel", VIPS_KERNEL_LANCZOS3, NULL)
        : vips_resize(in, &out, horizontal, "vscale", vertical, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
    return failed ? NULL : out;
}

// The centre (or any) part of an image: `fit=cover` crops what overflows the box.
static inline VipsImage *themed_vips_crop(VipsImage *in, int left, int top, int width, int height) {
    VipsImage *out = NULL;
    return vips_extract_area(in, &out, left, top, width, height, NULL) ? NULL : out;
}

// To sRGB: through the embedded ICC profile when there is one, else from Display P3 when the
// caller knows the pixels are (a catalog's P3 bitmap carries no profile), else by the image's
// interpretation.
static inline VipsImage *themed_vips_to_srgb(VipsImage *in, int from_display_p3) {
    VipsImage *out = NULL;
    int failed;
    if (vips_image_get_typeof(in, VIPS_META_ICC_NAME))
        failed = vips_icc_transform(in, &out, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_PERCEPTUAL, NULL);
    else if (from_display_p3)
        failed = vips_icc_transform(in, &out, "srgb", "input_profile", "p3", "intent", VIPS_INTENT_PERCEPTUAL, NULL);
    else
        failed = vips_colourspace(in, &out, VIPS_INTERPRETATION_sRGB, NULL);
    return failed ? NULL : out;
}

// On white, for formats without alpha (JPEG).
static inline VipsImage *themed_vips_flatten(VipsImage *in) {
    if (!vips_image_hasalpha(in)) { g_object_ref(in); return in; }
    VipsImage *out = NULL;
    VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
    int failed = vips_flatten(in, &out, "background", white, NULL);
    vips_area_unref(VIPS_AREA(white));
    return failed ? NULL : out;
}

enum themed_vips_format { THEMED_VIPS_PNG = 0, THEMED_VIPS_WEBP = 1, THEMED_VIPS_AVIF = 2, THEMED_VIPS_JPEG = 3 };

// Encodes into a buffer the caller frees with g_free; 0 on success.
static inline int themed_vips_save(VipsImage *in, int format, int quality, int lossless, int effort, void **buffer, size_t *length) {
    switch (format) {
    case THEMED_VIPS_PNG: return vips_pngsave_buffer(in, buffer, length, "strip", TRUE, NULL);
    case THEMED_VIPS_WEBP: return vips_webpsave_buffer(in, buffer, length, "Q", quality, "lossless", lossless, "effort", effort, "strip", TRUE, NULL);
    case THEMED_VIPS_AVIF: return vips_heifsave_buffer(in, buffer, length, "Q", quality, "lossless", lossless, "effort", effort,
                                                     "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "strip", TRUE, NULL);
    case THEMED_VIPS_JPEG: return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
    default: return -1;
    }
}

// The text of the errors since the last clear (libvips keeps one buffer for the process).
static inline const char *themed_vips_error(void) { return vips_error_buffer(); }
static inline void themed_vips_clear_error(void) { vips_error_clear(); }
static inline void themed_vips_release(void *image) { if (image) g_object_unref(image); }
static inline void themed_vips_free(void *buffer) { g_free(buffer); }
