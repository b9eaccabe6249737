// libarchive (Debian's libarchive-dev): tar archives, gzip-compressed or not, for releases
// uploaded over HTTP and made by `themed publish --server`.
#include <archive.h>
#include <archive_entry.h>
