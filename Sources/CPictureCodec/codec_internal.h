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

// MARK: The region kept, shrunk as its rows arrive (shrunk_region.c)

/// Which part of the picture is kept.
typedef enum {
    /// The largest square at its centre: a profile picture.
    REGION_CENTRE_SQUARE,
    /// All of it: a book cover.
    REGION_WHOLE,
} region_shape;

/// The part of a picture that is kept, averaged over boxes of `factor` × `factor` pixels as its
/// rows arrive from the decoder, top to bottom: it costs one row of sums and the result, however
/// large the picture.
typedef struct {
    /// What the caller asks for: the shape, and how wide the region must stay, as shown, where the
    /// picture is that large.
    region_shape shape;
    int least_width;
    /// One grey byte a pixel (luma) instead of red, green and blue, with `least_width` counted
    /// along the shorter side: a photo read for its barcode, whichever way it is turned.
    int grey;
    /// How the stored picture is turned to be shown, EXIF's 1 to 8: the decoder sets it before
    /// it chooses a scale, since a quarter turn makes the stored height the width shown.
    int orientation;
    /// The whole picture's size as stored, before any shrinking: its shape, which turning swaps.
    int picture_width, picture_height;
    /// Where the region starts in the picture as decoded.
    int left, top;
    int factor;
    /// The region's size once shrunk.
    int width, height;
    /// The sums of the shrunk row being gathered: red, green, blue (or grey).
    uint32_t *sums;
    /// `width` × `height` pixels, red green blue (or grey), row by row.
    unsigned char *pixels;
} shrunk_region;

/// Of a picture `width` × `height` as stored, the side along which the region's width will be
/// shown: the shorter for the centre square (and a grey picture), and for the whole picture the
/// side it is turned to show across.
int region_across(const shrunk_region *region, int width, int height);

/// For a picture `picture_width` × `picture_height` as stored, decoded at `width` × `height`
/// (smaller when its decoder scaled it, or already the square when it cropped): the factor is the
/// largest that leaves the region at least `least_width` across where the picture is that large.
/// 0, or -1 out of memory.
int region_start(shrunk_region *region, int picture_width, int picture_height, int width, int height);

/// Adds row `y` of the picture, 3 channels (RGB) or 4 (RGBA, flattened onto white a pixel at a time).
void region_add_row(shrunk_region *region, const unsigned char *row, int channels, int y);

void region_free(shrunk_region *region);

// MARK: Turning it upright (orientation.c) and resampling it (resampling.c)

/// The Orientation tag of an EXIF block (a TIFF header and directory), 1 to 8; 1 when it has none.
int exif_orientation(const unsigned char *tiff, size_t length);

/// Mirrors and turns the region as its `orientation` says it is shown. 0 or -1.
int region_turn_upright(shrunk_region *region);

/// A grey region's pixels, mirrored and turned as its `orientation` says they are shown, handed
/// over to `grey` (the region keeps none). 0 or -1 out of memory.
int region_grey_upright(shrunk_region *region, picture_grey *grey);

/// The region resampled to `width` × `height` by averaging areas, or NULL out of memory.
unsigned char *region_resample(const shrunk_region *region, int width, int height);

// MARK: The decoders (jpeg_reading.c, png_reading.c, webp_reading.c)

/// Each reads only the header, or decodes the region `region` asks for into it (shrunk to at least
/// its `least_width` across where the picture is that large), setting its orientation. 0 or -1.
int read_jpeg_header(const void *bytes, size_t length, picture_header *header, picture_failure *failure);
int read_jpeg_region(const void *bytes, size_t length, const picture_limits *limits, shrunk_region *region,
                     picture_failure *failure);
int read_png_header(const void *bytes, size_t length, picture_header *header, picture_failure *failure);
int read_png_region(const void *bytes, size_t length, const picture_limits *limits, shrunk_region *region,
                    picture_failure *failure);
int read_webp_header(const void *bytes, size_t length, picture_header *header, picture_failure *failure);
int read_webp_region(const void *bytes, size_t length, shrunk_region *region, picture_failure *failure);

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

/// `rgb`, `width` × `height` pixels, as a JPEG with JFIF's APP0 and no other marker. 0 or -1.
int write_bare_jpeg(const unsigned char *rgb, int width, int height, picture_bytes *out, picture_failure *failure);

#endif
