#include "codec_internal.h"

#include <stdbool.h>
#include <string.h>
#include <webp/decode.h>

static int fail_with_status(picture_failure *failure, VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return set_failure(failure, "libwebp: out of memory");
    case VP8_STATUS_INVALID_PARAM: return set_failure(failure, "libwebp: invalid parameter");
    case VP8_STATUS_BITSTREAM_ERROR: return set_failure(failure, "libwebp: damaged data");
    case VP8_STATUS_UNSUPPORTED_FEATURE: return set_failure(failure, "libwebp: unsupported feature");
    case VP8_STATUS_NOT_ENOUGH_DATA: return set_failure(failure, "libwebp: data cut short");
    default: return set_failure(failure, "libwebp: could not decode");
    }
}

/* The data of the first chunk named `name` after "RIFF", the size and "WEBP": each chunk is a
   four-letter name, a little-endian size, and the data padded to an even length. */
static bool find_chunk(const unsigned char *bytes, size_t length, const char *name, const unsigned char **data,
                       size_t *size) {
    size_t offset = 12;
    while (length >= 8 && offset <= length - 8) {
        const unsigned char *chunk = bytes + offset;
        size_t chunk_size = chunk[4] | chunk[5] << 8 | chunk[6] << 16 | (size_t)chunk[7] << 24;
        if (chunk_size > length - offset - 8) {
            return false;
        }
        if (memcmp(chunk, name, 4) == 0) {
            *data = chunk + 8;
            *size = chunk_size;
            return true;
        }
        offset += 8 + chunk_size + (chunk_size & 1);
    }
    return false;
}

// MARK: The header

/* libwebp holds an alpha plane for the whole picture (alpha_dec.c), and when the plane is
   compressed losslessly (ALPH's first byte), decodes it like a lossless picture: 1 byte a pixel
   more when the compressor kept to a palette, 4 more when it did not. We cannot tell which
   before decoding, so the dearer is counted. */
static size_t transparency_bytes(const unsigned char *bytes, size_t length, size_t pixels) {
    const unsigned char *alpha;
    size_t size;
    bool compressed = !find_chunk(bytes, length, "ALPH", &alpha, &size) || size == 0 || (alpha[0] & 3) != 0;
    return compressed ? 5 * pixels : pixels;
}

static void describe_layout(const unsigned char *bytes, size_t length, const WebPBitstreamFeatures *features,
                            picture_header *header) {
    size_t pixels = (size_t)features->width * (size_t)features->height;
    header->width = features->width;
    header->height = features->height;
    if (features->format == 2) {
        /* ARGB for the whole picture and 17 rows more of cache (vp8l_dec.c). */
        header->layout = PICTURE_LOSSLESS_WEBP;
        header->whole_frame_bytes = 4 * (pixels + 17 * (size_t)features->width);
    } else if (features->has_alpha) {
        header->layout = PICTURE_WEBP_WITH_TRANSPARENCY;
        header->whole_frame_bytes = transparency_bytes(bytes, length, pixels);
    } else {
        header->layout = PICTURE_STREAMS;
        header->whole_frame_bytes = 0;
    }
}

int read_webp_header(const void *bytes, size_t length, picture_header *header, picture_failure *failure) {
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(bytes, length, &features);
    if (status != VP8_STATUS_OK) {
        return fail_with_status(failure, status);
    }
    if (features.has_animation) {
        return set_failure(failure, "an animated WebP");
    }
    describe_layout(bytes, length, &features, header);
    return 0;
}

// MARK: The region

/* Some writers keep the "Exif\0\0" that starts a JPEG's APP1 in front of the TIFF header. */
static int orientation_in_chunks(const unsigned char *bytes, size_t length) {
    const unsigned char *exif;
    size_t size;
    if (!find_chunk(bytes, length, "EXIF", &exif, &size)) {
        return 1;
    }
    if (size >= 6 && memcmp(exif, "Exif\0\0", 6) == 0) {
        exif += 6;
        size -= 6;
    }
    return exif_orientation(exif, size);
}

/* libwebp crops first and then scales, averaging areas, so a lossy picture is decoded straight
   to the region at its `least_width` across, a few rows at a time. */
static void ask_for_region(WebPDecoderConfig *config, const shrunk_region *region) {
    int width = config->input.width;
    int height = config->input.height;
    if (region->shape == REGION_CENTRE_SQUARE) {
        int side = MIN(width, height);
        config->options.use_cropping = 1;
        config->options.crop_left = (width - side) / 2;
        config->options.crop_top = (height - side) / 2;
        config->options.crop_width = side;
        config->options.crop_height = side;
        width = side;
        height = side;
    }
    int64_t across = region_across(region, width, height);
    if (across > region->least_width) {
        config->options.use_scaling = 1;
        config->options.scaled_width = (int)MAX(1, (width * (int64_t)region->least_width + across / 2) / across);
        config->options.scaled_height = (int)MAX(1, (height * (int64_t)region->least_width + across / 2) / across);
    }
    config->output.colorspace = MODE_RGBA;
}

static int take_region(const WebPDecBuffer *output, const WebPBitstreamFeatures *picture, shrunk_region *region,
                       picture_failure *failure) {
    const WebPRGBABuffer *rgba = &output->u.RGBA;
    if (region_start(region, picture->width, picture->height, output->width, output->height)) {
        return set_failure(failure, "out of memory");
    }
    for (int y = 0; y < output->height; y++) {
        region_add_row(region, rgba->rgba + (size_t)rgba->stride * y, 4, y);
    }
    return 0;
}

int read_webp_region(const void *bytes, size_t length, shrunk_region *region, picture_failure *failure) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        return set_failure(failure, "libwebp is another version");
    }
    VP8StatusCode status = WebPGetFeatures(bytes, length, &config.input);
    if (status != VP8_STATUS_OK) {
        return fail_with_status(failure, status);
    }
    region->orientation = orientation_in_chunks(bytes, length);
    ask_for_region(&config, region);
    status = WebPDecode(bytes, length, &config);
    int result = status == VP8_STATUS_OK ? take_region(&config.output, &config.input, region, failure)
                                         : fail_with_status(failure, status);
    WebPFreeDecBuffer(&config.output);
    return result;
}

// MARK: The library

int check_libwebp(picture_failure *failure) {
    WebPDecoderConfig config;
    return WebPInitDecoderConfig(&config) ? 0 : set_failure(failure, "libwebp is another version");
}
