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

/* PNG has no EXIF orientation we apply, so the region's keeps the 1 it starts at. */
static int read_region(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                       shrunk_region *region, picture_failure *failure) {
    switch (format) {
    case PICTURE_JPEG: return read_jpeg_region(bytes, length, limits, region, failure);
    case PICTURE_PNG: return read_png_region(bytes, length, limits, region, failure);
    case PICTURE_WEBP: return read_webp_region(bytes, length, region, failure);
    default: return set_failure(failure, "unknown format");
    }
}

/* The whole picture keeps its shape, rounded to the nearest pixel. */
static int height_at(const shrunk_region *region, int width) {
    if (region->shape == REGION_CENTRE_SQUARE) {
        return width;
    }
    int64_t across = region->picture_width;
    return (int)MAX(1, MIN((width * (int64_t)region->picture_height + across / 2) / across, INT32_MAX));
}

static int write_at(const shrunk_region *region, int width, int height, picture_bytes *out,
                    picture_failure *failure) {
    unsigned char *pixels = region_resample(region, width, height);
    if (pixels == NULL) {
        return set_failure(failure, "out of memory");
    }
    int result = write_bare_jpeg(pixels, width, height, out, failure);
    free(pixels);
    return result;
}

/* Should a shape the caller let through be long and thin enough to make a JPEG taller than any
   picture it accepts, that is refused before its buffer is allocated. */
static int make_jpegs(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                      int large_width, int small_width, shrunk_region *region, picture_bytes *large,
                      picture_bytes *small, int *large_height, picture_failure *failure) {
    if (read_region(bytes, length, format, limits, region, failure)) {
        return -1;
    }
    if (region_turn_upright(region)) {
        return set_failure(failure, "out of memory");
    }
    *large_height = height_at(region, large_width);
    int small_height = height_at(region, small_width);
    if (MAX(*large_height, small_height) > limits->longest_side) {
        return set_failure(failure, "too long and thin to write at that width");
    }
    return write_at(region, large_width, *large_height, large, failure)
                || write_at(region, small_width, small_height, small, failure)
             ? -1
             : 0;
}

static int make_region_jpegs(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                             region_shape shape, int large_width, int small_width, picture_bytes *large,
                             picture_bytes *small, int *large_height, picture_failure *failure) {
    shrunk_region region = {.shape = shape, .least_width = large_width, .orientation = 1};
    *large = (picture_bytes){NULL, 0};
    *small = (picture_bytes){NULL, 0};
    *large_height = 0;
    if (large_width < 1 || small_width < 1) {
        return set_failure(failure, "no width to write at");
    }
    int result = make_jpegs(bytes, length, format, limits, large_width, small_width, &region, large, small,
                            large_height, failure);
    region_free(&region);
    if (result != 0) {
        free(large->bytes);
        free(small->bytes);
        *large = (picture_bytes){NULL, 0};
        *small = (picture_bytes){NULL, 0};
    }
    return result;
}

int picture_make_squares(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                         int large_side, int small_side, picture_bytes *large, picture_bytes *small,
                         picture_failure *failure) {
    int large_height;
    return make_region_jpegs(bytes, length, format, limits, REGION_CENTRE_SQUARE, large_side, small_side, large,
                             small, &large_height, failure);
}

int picture_make_fitted(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                        int large_width, int small_width, picture_bytes *large, picture_bytes *small,
                        int *large_height, picture_failure *failure) {
    return make_region_jpegs(bytes, length, format, limits, REGION_WHOLE, large_width, small_width, large, small,
                             large_height, failure);
}

int picture_read_grey(const void *bytes, size_t length, picture_format format, const picture_limits *limits,
                      int least_width, picture_grey *grey, picture_failure *failure) {
    shrunk_region region = {.shape = REGION_WHOLE, .least_width = least_width, .grey = 1, .orientation = 1};
    *grey = (picture_grey){NULL, 0, 0};
    if (least_width < 1) {
        return set_failure(failure, "no width to read at");
    }
    int result = read_region(bytes, length, format, limits, &region, failure);
    if (result == 0 && region_grey_upright(&region, grey)) {
        result = set_failure(failure, "out of memory");
    }
    region_free(&region);
    return result;
}

void picture_free(void *bytes) {
    free(bytes);
}
