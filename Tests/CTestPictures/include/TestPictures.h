#ifndef TEST_PICTURES_H
#define TEST_PICTURES_H

#include <PictureCodec.h>

// For the tests only, which make their pictures as they run instead of committing binary files.

/// How a test picture stores its colours.
typedef enum {
    TEST_PICTURE_RGB = 0,
    /// One grey channel, taken from each stripe's red byte (JPEG, PNG).
    TEST_PICTURE_GREY,
    /// CMYK as Adobe's applications write it, inverted and marked with their APP14 (JPEG).
    TEST_PICTURE_CMYK,
} test_picture_colours;

/// Stripes of equal width in the order given: vertical ones left to right, or with
/// `horizontal` top to bottom.
typedef struct {
    picture_format format;
    int width;
    int height;
    /// Three bytes a stripe: red, green, blue.
    const unsigned char *stripes;
    int stripe_count;
    int horizontal;
    test_picture_colours colours;
    /// Adds an alpha channel at half opacity (PNG, WebP).
    int with_alpha;
    /// The layout a decoder must hold whole: a progressive JPEG, an interlaced PNG, a lossless WebP.
    int whole_frame_layout;
} test_picture_recipe;

/// Encodes the recipe. JPEG and PNG are written a row at a time, so a 40 megapixel picture
/// costs no full-size buffer; WebP's encoder needs one. 0, or -1 with nothing to free.
int test_picture_encode(const test_picture_recipe *recipe, picture_bytes *out);

/// Encodes `grey` (the recipe's width × height bytes, row by row) in the recipe's format and
/// colours instead of its stripes: the barcodes the scanning tests draw. 0, or -1 with nothing to free.
int test_picture_encode_grey(const test_picture_recipe *recipe, const unsigned char *grey, picture_bytes *out);

/// The red, green and blue values of the pixel at (`x`, `y`) of a JPEG. 0 or -1.
int test_picture_pixel(const void *jpeg, size_t length, int x, int y, unsigned char rgb[3]);

#endif
