// What themed calls of libvips 8 (soname 42, Debian's libvips42), declared here instead of taken
// from <vips/vips.h> so that the binary does not link libvips: it is loaded when the first image
// is coded (vips.c). Linked, its 103 libraries took 20 of the 33 ms every `themed` command spent
// starting, ten times that on a loaded machine. scripts/check-vips-abi.c compiles these against
// the installed headers and fails on any difference (`make test` runs it).
#ifndef THEMED_VIPS_ABI_H
#define THEMED_VIPS_ABI_H

#include <stddef.h>

#define THEMED_VIPS_SONAME "libvips.so.42"

typedef struct _VipsImage VipsImage;
typedef struct _VipsArea VipsArea;
typedef struct _VipsArrayDouble VipsArrayDouble;

// Enumerations' values as the headers number them.
enum {
    THEMED_VIPS_FAIL_ON_ERROR = 2,
    THEMED_VIPS_KERNEL_LANCZOS3 = 5,
    THEMED_VIPS_INTENT_PERCEPTUAL = 0,
    THEMED_VIPS_INTERPRETATION_sRGB = 22,
    THEMED_VIPS_FOREIGN_HEIF_COMPRESSION_AV1 = 4,
};
#define THEMED_VIPS_META_ICC_NAME "icc-profile-data"

// X(name, type): each function used, with its type as declared by libvips (and GLib).
#define THEMED_VIPS_FUNCTIONS(X) \
    X(vips_init, int (const char *)) \
    X(vips_cache_set_max, void (int)) \
    X(vips_concurrency_set, void (int)) \
    X(vips_image_new_from_buffer, VipsImage *(const void *, size_t, const char *, ...)) \
    X(vips_pdfload_buffer, int (void *, size_t, VipsImage **, ...)) \
    X(vips_svgload_buffer, int (void *, size_t, VipsImage **, ...)) \
    X(vips_image_copy_memory, VipsImage *(VipsImage *)) \
    X(vips_image_get_n_pages, int (VipsImage *)) \
    X(vips_image_get_width, int (const VipsImage *)) \
    X(vips_image_get_height, int (const VipsImage *)) \
    X(vips_reduce, int (VipsImage *, VipsImage **, double, double, ...)) \
    X(vips_resize, int (VipsImage *, VipsImage **, double, ...)) \
    X(vips_extract_area, int (VipsImage *, VipsImage **, int, int, int, int, ...)) \
    X(vips_image_get_typeof, unsigned long (const VipsImage *, const char *)) \
    X(vips_icc_transform, int (VipsImage *, VipsImage **, const char *, ...)) \
    X(vips_colourspace, int (VipsImage *, VipsImage **, int, ...)) \
    X(vips_image_hasalpha, int (VipsImage *)) \
    X(vips_array_double_newv, VipsArrayDouble *(int, ...)) \
    X(vips_flatten, int (VipsImage *, VipsImage **, ...)) \
    X(vips_area_unref, void (VipsArea *)) \
    X(vips_pngsave_buffer, int (VipsImage *, void **, size_t *, ...)) \
    X(vips_webpsave_buffer, int (VipsImage *, void **, size_t *, ...)) \
    X(vips_heifsave_buffer, int (VipsImage *, void **, size_t *, ...)) \
    X(vips_jpegsave_buffer, int (VipsImage *, void **, size_t *, ...)) \
    X(vips_error_buffer, const char *(void)) \
    X(vips_error_clear, void (void)) \
    X(g_object_ref, void *(void *)) \
    X(g_object_unref, void (void *)) \
    X(g_free, void (void *))

#endif
