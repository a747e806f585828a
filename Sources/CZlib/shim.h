#include <zlib.h>

// deflateInit2 and inflateInit2 are macros, which Swift does not import. windowBits 15 + 16:
// a gzip header and trailer (RFC 1952) around the deflate stream rather than zlib's.
static inline int wishlist_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}

// windowBits -15: a bare deflate stream (RFC 1951), for bodies whose gzip frame is written by
// hand around deflate streams spliced together (Gzip.SharedPart, Gzip.compress(_:level:reusing:)).
static inline int wishlist_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}
