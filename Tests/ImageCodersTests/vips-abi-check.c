// Compiled (never run) by VipsLoaderTests against the installed <vips/vips.h>: every function
// and constant Sources/CVips/vips_abi.h declares must be the one libvips declares.
#include <vips/vips.h>
#include "../../Sources/CVips/vips_abi.h"

#define THEMED_VIPS_SAME(name, type) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(name), __typeof__(type)), #name " is declared otherwise by libvips");
THEMED_VIPS_FUNCTIONS(THEMED_VIPS_SAME)

_Static_assert(THEMED_VIPS_FAIL_ON_ERROR == VIPS_FAIL_ON_ERROR, "VIPS_FAIL_ON_ERROR");
_Static_assert(THEMED_VIPS_KERNEL_LANCZOS3 == VIPS_KERNEL_LANCZOS3, "VIPS_KERNEL_LANCZOS3");
_Static_assert(THEMED_VIPS_INTENT_PERCEPTUAL == VIPS_INTENT_PERCEPTUAL, "VIPS_INTENT_PERCEPTUAL");
_Static_assert(THEMED_VIPS_INTERPRETATION_sRGB == VIPS_INTERPRETATION_sRGB, "VIPS_INTERPRETATION_sRGB");
_Static_assert(THEMED_VIPS_FOREIGN_HEIF_COMPRESSION_AV1 == VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "VIPS_FOREIGN_HEIF_COMPRESSION_AV1");
_Static_assert(sizeof THEMED_VIPS_META_ICC_NAME == sizeof VIPS_META_ICC_NAME, "VIPS_META_ICC_NAME");
_Static_assert(sizeof(GType) == sizeof(unsigned long) && sizeof(gboolean) == sizeof(int), "GLib's types");
