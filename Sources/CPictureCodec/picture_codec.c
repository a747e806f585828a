#include "codec_internal.h"

#include <stdlib.h>

int set_failure(picture_failure *failure, const char *reason) {
    snprintf(failure->reason, sizeof failure->reason, "%s", reason);
    return -1;
}

int picture_check_codecs(picture_failure *failure) {
    return check_libjpeg(failure) || check_libpng(failure) || check_libwebp(failure) ? -1 : 0;
}

int picture_read_header(const void *bytes, size_t length, picture_format format, picture_header *header,
                        picture_failure *failure) {
    switch (format) {
    case PICTURE_JPEG: return read_jpeg_header(bytes, length, header, failure);
    case PICTURE_PNG: return read_png_header(bytes, length, header, failure);
    case PICTURE_WEBP: return read_webp_header(bytes, length, header, failure);
    default: return set_failure(failure, "unknown format");
    }
}

/* PNG has no EXIF orientation we apply, so `orientation` keeps the 1 it starts at. */
static int read_square(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                       int least_side, shrunk_square *square, int *orientation, picture_failure *failure) {
    switch (format) {
    case PICTURE_JPEG: return read_jpeg_square(bytes, length, limits, least_side, square, orientation, failure);
    case PICTURE_PNG: return read_png_square(bytes, length, limits, least_side, square, failure);
    case PICTURE_WEBP: return read_webp_square(bytes, length, least_side, square, orientation, failure);
    default: return set_failure(failure, "unknown format");
    }
}

static int write_side(const shrunk_square *square, int side, picture_bytes *out, picture_failure *failure) {
    unsigned char *pixels = square_resample(square, side);
    if (pixels == NULL) {
        return set_failure(failure, "out of memory");
    }
    int result = write_square_jpeg(pixels, side, out, failure);
    free(pixels);
    return result;
}

static int make_squares(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                        int large_side, int small_side, shrunk_square *square, picture_bytes *large,
                        picture_bytes *small, picture_failure *failure) {
    int orientation = 1;
    if (read_square(bytes, length, format, limits, large_side, square, &orientation, failure)) {
        return -1;
    }
    if (square_turn_upright(square, orientation)) {
        return set_failure(failure, "out of memory");
    }
    return write_side(square, large_side, large, failure) || write_side(square, small_side, small, failure) ? -1 : 0;
}

int picture_make_squares(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                         int large_side, int small_side, picture_bytes *large, picture_bytes *small,
                         picture_failure *failure) {
    shrunk_square square = {0};
    *large = (picture_bytes){NULL, 0};
    *small = (picture_bytes){NULL, 0};
    int result = make_squares(bytes, length, format, limits, large_side, small_side, &square, large, small, failure);
    square_free(&square);
    if (result != 0) {
        free(large->bytes);
        free(small->bytes);
        *large = (picture_bytes){NULL, 0};
        *small = (picture_bytes){NULL, 0};
    }
    return result;
}

void picture_free(void *bytes) {
    free(bytes);
}
