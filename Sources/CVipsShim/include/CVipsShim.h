#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <stddef.h>

// libvips's API is variadic (named options ending in NULL), which Swift cannot call: these are
// the fixed-argument calls the picture code needs. The header names no libvips or GLib type, so
// Swift sees only this file.

/// The formats we accept. Each is read by its own decoder, chosen here, never by a libvips loader
/// that guesses the format from the bytes (which would also open SVG, PDF and the rest).
typedef enum {
    CVIPS_JPEG = 1,
    CVIPS_PNG = 2,
    CVIPS_WEBP = 3,
} cvips_format;

/// Bytes that libvips allocated; give them back with `cvips_free`.
typedef struct {
    void *bytes;
    size_t length;
} cvips_bytes;

/// Starts libvips, once for the process however often it is called: one worker thread per
/// picture, no operation cache, and every loader blocked but the three we use. 0 when libvips
/// runs, -1 when it could not start (`cvips_take_error` says why).
int cvips_start(void);

/// The picture's width and height as its header gives them, with no pixel decoded. 0 or -1.
int cvips_read_size(const void *bytes, size_t length, cvips_format format, int *width, int *height);

/// Decodes the picture and encodes two square JPEGs of it, `large_side` and `small_side` pixels,
/// centre-cropped, in sRGB, transparency flattened onto white, with no metadata at all; a JPEG
/// or WebP is turned upright by its EXIF orientation. JPEG and WebP are shrunk while they load; a PNG is read a row
/// at a time (an interlaced one whole: check its size first). The caller has checked the width
/// and height. 0 with both outputs set, or -1 with neither (nothing to free).
int cvips_square_jpegs(const void *bytes, size_t length, cvips_format format, int large_side, int small_side,
                       cvips_bytes *large, cvips_bytes *small);

/// Frees what `cvips_square_jpegs`, `cvips_take_error` or `cvips_test_picture` returned; NULL is fine.
void cvips_free(void *bytes);

/// libvips's error text gathered since the last call, which it clears; NULL when there is none.
/// Free it with `cvips_free`. libvips keeps one buffer for the whole process, so with several
/// pictures failing at once a text may mix their errors: it is for the log, never for a person.
char *cvips_take_error(void);

// MARK: For the tests, which make their pictures instead of committing binary files.

/// A `width` × `height` picture of `colour_count` stripes of equal width, from `colours` (three
/// bytes, red green blue, a stripe): vertical ones left to right, or with `horizontal` top to
/// bottom. Encoded as `format`; `with_alpha` adds an alpha channel at half opacity;
/// `whole_frame_layout` picks the layout a decoder must hold whole: a progressive JPEG, an
/// interlaced PNG, a lossless WebP. Made lazily, so a 40 megapixel picture costs no full-size
/// buffer. 0 or -1.
int cvips_test_picture(cvips_format format, int width, int height, const unsigned char *colours,
                       int colour_count, int horizontal, int with_alpha, int whole_frame_layout, cvips_bytes *out);

/// The red, green and blue values of the pixel at (`x`, `y`) of a JPEG. 0 or -1.
int cvips_test_pixel(const void *jpeg, size_t length, int x, int y, unsigned char rgb[3]);

#endif
