#ifndef CODEC_INTERNAL_H
#define CODEC_INTERNAL_H

// What the files of this target share, and Swift never sees.

#include "PictureCodec.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/// Copies `reason` into `failure`; returns -1, for `return set_failure(...)`.
int set_failure(picture_failure *failure, const char *reason);

// MARK: libjpeg's errors (jpeg_errors.c)

/// libjpeg's error manager, made to jump back to the caller's setjmp instead of printing and
/// ending the process. The library's pointer to the manager is a pointer to this.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    picture_failure *failure;
} jpeg_errors;

struct jpeg_error_mgr *jpeg_errors_start(jpeg_errors *errors, picture_failure *failure);

/// Fails the coder `info` belongs to with `reason`, by the same jump as libjpeg's own errors.
void jpeg_errors_stop(j_common_ptr info, const char *reason);

// MARK: The centre square, shrunk as its rows arrive (shrunk_square.c)

/// The centre square of a picture, averaged over boxes of `factor` × `factor` pixels as its rows
/// arrive from the decoder, top to bottom: it costs one row of sums and the result, however
/// large the picture.
typedef struct {
    /// Where the square starts in the picture as decoded.
    int left, top;
    int factor;
    /// The square's side once shrunk.
    int side;
    /// The sums of the shrunk row being gathered: red, green, blue.
    uint32_t *sums;
    /// `side` × `side` pixels, red green blue, row by row.
    unsigned char *pixels;
} shrunk_square;

/// For a picture decoded at `width` × `height`: the factor is the largest that leaves the side at
/// least `least_side`, where the picture is that large. 0, or -1 out of memory.
int square_start(shrunk_square *square, int width, int height, int least_side);

/// Adds row `y` of the picture, 3 channels (RGB) or 4 (RGBA, flattened onto white a pixel at a time).
void square_add_row(shrunk_square *square, const unsigned char *row, int channels, int y);

void square_free(shrunk_square *square);

// MARK: Turning it upright (orientation.c) and resampling it (resampling.c)

/// The Orientation tag of an EXIF block (a TIFF header and directory), 1 to 8; 1 when it has none.
int exif_orientation(const unsigned char *tiff, size_t length);

/// Mirrors and turns the square as the EXIF `orientation` (1 to 8) says it is shown. 0 or -1.
int square_turn_upright(shrunk_square *square, int orientation);

/// The square resampled to `side` × `side` by averaging areas, or NULL out of memory.
unsigned char *square_resample(const shrunk_square *square, int side);

// MARK: The decoders (jpeg_reading.c, png_reading.c, webp_reading.c)

/// Each reads only the header, or decodes the centre square into `square` (shrunk to at least
/// `least_side` across where the picture is that large) with the EXIF `orientation`. 0 or -1.
int read_jpeg_header(const void *bytes, size_t length, picture_header *header, picture_failure *failure);
int read_jpeg_square(const void *bytes, size_t length, const picture_limits *limits, int least_side,
                     shrunk_square *square, int *orientation, picture_failure *failure);
int read_png_header(const void *bytes, size_t length, picture_header *header, picture_failure *failure);
int read_png_square(const void *bytes, size_t length, const picture_limits *limits, int least_side,
                    shrunk_square *square, picture_failure *failure);
int read_webp_header(const void *bytes, size_t length, picture_header *header, picture_failure *failure);
int read_webp_square(const void *bytes, size_t length, int least_side, shrunk_square *square, int *orientation,
                     picture_failure *failure);

/// Whether each library, as loaded, is one this code can use (`picture_check_codecs`). 0 or -1.
int check_libjpeg(picture_failure *failure);
int check_libpng(picture_failure *failure);
int check_libwebp(picture_failure *failure);

// MARK: Writing JPEGs (jpeg_writing.c)

/// A libjpeg destination that writes into a buffer it doubles when full. After a failure the
/// caller frees `buffer` (NULL is fine).
typedef struct {
    struct jpeg_destination_mgr manager;
    unsigned char *buffer;
    size_t capacity;
} growing_destination;

void growing_destination_attach(j_compress_ptr info, growing_destination *destination);

/// What was written, once the compressor has finished; the buffer is the caller's now.
picture_bytes growing_destination_take(growing_destination *destination);

/// `rgb`, `side` × `side` pixels, as a JPEG with JFIF's APP0 and no other marker. 0 or -1.
int write_square_jpeg(const unsigned char *rgb, int side, picture_bytes *out, picture_failure *failure);

#endif
