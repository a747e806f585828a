#ifndef PICTURE_CODEC_H
#define PICTURE_CODEC_H

#include <stddef.h>

// Profile pictures from uploads and book covers from other servers: read by the libraries
// browsers themselves use on untrusted images (libjpeg-turbo, libpng, libwebp), shrunk to a square
// or kept whole while they decode, and written out as JPEGs; and photos of barcodes, read as grey. Swift sees this header and
// TestPictures.h only, never a codec's own types.

/// The formats we accept. The caller names the format from the file's first bytes, and only
/// that format's decoder ever sees the file.
typedef enum {
    PICTURE_JPEG = 1,
    PICTURE_PNG = 2,
    PICTURE_WEBP = 3,
} picture_format;

/// How a file is laid out, as far as its decoder's memory goes.
typedef enum {
    /// Decoded a few rows at a time: a baseline JPEG (already shrunk by libjpeg), a PNG, a lossy
    /// WebP without transparency (already shrunk by libwebp, and cropped to a profile picture's square).
    PICTURE_STREAMS = 0,
    /// libjpeg keeps every DCT coefficient of the picture until its last scan has arrived.
    PICTURE_PROGRESSIVE_JPEG,
    /// The same, for a sequential JPEG whose first scan leaves a component out.
    PICTURE_MULTI_SCAN_JPEG,
    /// libpng delivers an interlaced PNG in seven passes over the whole picture.
    PICTURE_INTERLACED_PNG,
    /// libwebp decodes a lossless WebP whole, 4 bytes a pixel.
    PICTURE_LOSSLESS_WEBP,
    /// libwebp decodes the transparency of a lossy WebP whole, 1 to 5 bytes a pixel.
    PICTURE_WEBP_WITH_TRANSPARENCY,
} picture_layout;

/// What a file's header says, read with no pixel decoded.
typedef struct {
    int width;
    int height;
    picture_layout layout;
    /// What its decoder holds for the whole picture, whatever size it is asked to decode at:
    /// the buffers of `layout`, counted as the library allocates them. 0 when it streams.
    size_t whole_frame_bytes;
} picture_header;

/// Limits the decoders enforce themselves, behind the caller's checks of the header, in case
/// a file gets past those: past them a decode fails instead of allocating.
typedef struct {
    /// libpng's user limits on width and height.
    int longest_side;
    /// libjpeg's `max_memory_to_use` (it has no temporary files, so a coefficient buffer that
    /// does not fit fails), and the most an interlaced PNG's rows may take.
    size_t whole_frame_bytes;
} picture_limits;

/// Why a call failed, in the library's own words: for the log, never for a person.
typedef struct {
    char reason[200];
} picture_failure;

/// Bytes allocated here; give them back with `picture_free`.
typedef struct {
    unsigned char *bytes;
    size_t length;
} picture_bytes;

/// Whether the libraries loaded at run time are ones this code can use: libjpeg checks its
/// version when a decoder is made, libpng refuses another minor version, libwebp another ABI.
/// 0, or -1 with `failure` saying which.
int picture_check_codecs(picture_failure *failure);

/// Reads the header alone. An animated WebP fails here: only its first frame could be shown.
/// 0, or -1 with `failure` set.
int picture_read_header(const void *bytes, size_t length, picture_format format, picture_header *header,
                        picture_failure *failure);

/// Decodes the picture's centre square, turns it upright by its EXIF orientation (JPEG, WebP),
/// flattens any transparency onto white, and writes it as two square JPEGs, `large_side` and
/// `small_side` pixels across, with no metadata at all. The caller has checked the header.
/// 0 with both set, or -1 with neither (nothing to free) and `failure` set.
int picture_make_squares(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                         int large_side, int small_side, picture_bytes *large, picture_bytes *small,
                         picture_failure *failure);

/// Decodes the whole picture, upright by its EXIF orientation, flattened onto white, and writes it as
/// two JPEGs `large_width` and `small_width` pixels wide keeping its shape, with no metadata.
/// `*large_height` is the large one's height. The caller has checked the header and the shape.
/// 0, or -1 with nothing to free and `failure` set.
int picture_make_fitted(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                        int large_width, int small_width, picture_bytes *large, picture_bytes *small,
                        int *large_height, picture_failure *failure);

/// A picture as one grey byte a pixel (luma), row by row, for a barcode reader.
typedef struct {
    unsigned char *pixels;
    int width;
    int height;
} picture_grey;

/// Decodes the whole picture, upright by its EXIF orientation, flattened onto white, as grey,
/// shrunk by whole boxes (and by libjpeg's and libwebp's scaling) no further than `least_width`
/// pixels along its shorter side, where it is that large. The caller has checked the header. 0 with `grey` set (free its
/// pixels with `picture_free`), or -1 with nothing to free and `failure` set.
int picture_read_grey(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                      int least_width, picture_grey *grey, picture_failure *failure);

/// `grey` at half its width and height, each pixel the mean of four. 0 with `halved` set (free its
/// pixels with `picture_free`), or -1 (out of memory, or a side under 2 pixels) with nothing to free.
int picture_grey_halved(const picture_grey *grey, picture_grey *halved);

/// `grey` turned `degrees` clockwise about its centre, in a frame large enough to hold all of it
/// (the corners white), sampled bilinearly: a barcode at an angle that scan lines cannot cross
/// whole becomes one they can. 0 with `turned` set (free its pixels with `picture_free`), or -1
/// out of memory with nothing to free.
int picture_grey_turned(const picture_grey *grey, double degrees, picture_grey *turned);

/// Frees what `picture_make_squares`, `picture_make_fitted`, `test_picture_encode` and the grey
/// functions returned; NULL is fine.
void picture_free(void *bytes);

#endif
