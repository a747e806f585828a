#include "codec_internal.h"

#include <stdlib.h>

int region_across(const shrunk_region *region, int width, int height) {
    if (region->shape == REGION_CENTRE_SQUARE || region->grey) {
        return MIN(width, height);
    }
    return region->orientation >= 5 ? height : width;
}

int region_start(shrunk_region *region, int picture_width, int picture_height, int width, int height) {
    int shorter = MIN(width, height);
    int extent_width = region->shape == REGION_CENTRE_SQUARE ? shorter : width;
    int extent_height = region->shape == REGION_CENTRE_SQUARE ? shorter : height;
    /* No larger than the shorter side, so that a long thin picture keeps a row and a column. */
    region->factor = MAX(1, MIN(region_across(region, width, height) / region->least_width, shorter));
    region->width = extent_width / region->factor;
    region->height = extent_height / region->factor;
    region->picture_width = picture_width;
    region->picture_height = picture_height;
    /* The few pixels a whole number of boxes leaves over go with the edges. */
    region->left = (width - region->width * region->factor) / 2;
    region->top = (height - region->height * region->factor) / 2;
    size_t channels = region->grey ? 1 : 3;
    region->sums = calloc(channels * region->width, sizeof *region->sums);
    region->pixels = calloc(channels * region->width * region->height, 1);
    return region->sums != NULL && region->pixels != NULL ? 0 : -1;
}

/* Half-transparent black on white is mid grey, as a browser shows it on a white page. */
static unsigned int on_white(const unsigned char *pixel, int band, int channels) {
    if (channels == 3) {
        return pixel[band];
    }
    unsigned int alpha = pixel[3];
    return (pixel[band] * alpha + 255 * (255 - alpha) + 127) / 255;
}

/* ITU-R BT.601's weights in 256ths, as a JPEG's Y channel has them. */
static unsigned int luma(const unsigned char *pixel, int channels) {
    return (77u * on_white(pixel, 0, channels) + 150u * on_white(pixel, 1, channels) + 29u * on_white(pixel, 2, channels)
            + 128u)
           >> 8;
}

void region_add_row(shrunk_region *region, const unsigned char *row, int channels, int y) {
    int kept_width = region->width * region->factor;
    int row_in_region = y - region->top;
    int bands = region->grey ? 1 : 3;
    if (row_in_region < 0 || row_in_region >= region->height * region->factor) {
        return;
    }
    for (int x = 0; x < kept_width; x++) {
        const unsigned char *pixel = row + (size_t)channels * (region->left + x);
        uint32_t *sum = region->sums + bands * (x / region->factor);
        if (region->grey) {
            sum[0] += luma(pixel, channels);
            continue;
        }
        for (int band = 0; band < 3; band++) {
            sum[band] += on_white(pixel, band, channels);
        }
    }
    if (row_in_region % region->factor == region->factor - 1) {
        uint32_t area = (uint32_t)(region->factor * region->factor);
        unsigned char *out = region->pixels + (size_t)bands * region->width * (row_in_region / region->factor);
        for (int index = 0; index < bands * region->width; index++) {
            out[index] = (unsigned char)((region->sums[index] + area / 2) / area);
            region->sums[index] = 0;
        }
    }
}

void region_free(shrunk_region *region) {
    free(region->sums);
    free(region->pixels);
    region->sums = NULL;
    region->pixels = NULL;
}
