// libvips for the image coders, loaded at first use (vips.c). libvips' calls take their options
// as C variadic arguments, which Swift cannot pass: each function here names the options it sets.
#ifndef THEMED_CVIPS_H
#define THEMED_CVIPS_H

#include <stddef.h>

typedef struct _VipsImage VipsImage;

// Once per process: loads libvips and starts it with no operation cache (results are cached as
// blobs) and one thread per operation (the worker pool runs operations side by side). -1 when
// it could not be loaded or started; themed_vips_error() then says why.
int themed_vips_start(void);

// The header of an image in memory; pixels are read when first asked for, from `buffer`, which
// must outlive the image. Errors stop the decode rather than give a partial image.
VipsImage *themed_vips_load(const void *buffer, size_t length);
// A PDF (first page) or SVG drawn at `scale` times its size in points.
VipsImage *themed_vips_load_vector(const void *buffer, size_t length, int is_pdf, double scale);
// The pixels decoded once into memory: a resize reads source lines more than once, and would
// otherwise decode them again.
VipsImage *themed_vips_decode(VipsImage *in);
int themed_vips_pages(VipsImage *image);
int themed_vips_width(const VipsImage *image);
int themed_vips_height(const VipsImage *image);
// Lanczos-3 resampling by separate horizontal and vertical factors.
VipsImage *themed_vips_resize(VipsImage *in, double horizontal, double vertical);
// The centre (or any) part of an image: `fit=cover` crops what overflows the box.
VipsImage *themed_vips_crop(VipsImage *in, int left, int top, int width, int height);
// To sRGB: through the embedded ICC profile when there is one, else from Display P3 when the
// caller knows the pixels are (a catalog's P3 bitmap carries no profile), else by the image's
// interpretation.
VipsImage *themed_vips_to_srgb(VipsImage *in, int from_display_p3);
// On white, for formats without alpha (JPEG).
VipsImage *themed_vips_flatten(VipsImage *in);

enum themed_vips_format { THEMED_VIPS_PNG = 0, THEMED_VIPS_WEBP = 1, THEMED_VIPS_AVIF = 2, THEMED_VIPS_JPEG = 3 };

// Encodes into a buffer the caller frees with themed_vips_free; 0 on success.
int themed_vips_save(VipsImage *in, int format, int quality, int lossless, int effort, void **buffer, size_t *length);

// The text of the errors since the last clear (libvips keeps one buffer for the process).
const char *themed_vips_error(void);
void themed_vips_clear_error(void);
void themed_vips_release(VipsImage *image);
void themed_vips_free(void *buffer);

#endif
