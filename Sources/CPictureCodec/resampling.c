#include "codec_internal.h"

#include <stdlib.h>

/* How much of output pixel `to_index` input pixel `from_index` covers, on a line measured so
   that every length is whole: an input pixel is `to` long, an output pixel `from`, and the line
   `from` × `to`. An output pixel's overlaps add up to `from`. */
static uint64_t overlap(int from_index, int to_index, int from, int to) {
    int64_t start = MAX((int64_t)from_index * to, (int64_t)to_index * from);
    int64_t end = MIN((int64_t)(from_index + 1) * to, (int64_t)(to_index + 1) * from);
    return (uint64_t)(end - start);
}

/* The mean of the input pixels under output pixel (x, y), each weighted by the area it covers:
   a box filter the size of the output pixel, which is also how it enlarges a tiny picture. */
static void average_area(const shrunk_region *region, int width, int height, int x, int y, unsigned char *rgb) {
    int from_width = region->width;
    int from_height = region->height;
    uint64_t sums[3] = {0, 0, 0};
    for (int row = (int)((int64_t)y * from_height / height); (int64_t)row * height < (int64_t)(y + 1) * from_height;
         row++) {
        uint64_t row_weight = overlap(row, y, from_height, height);
        for (int column = (int)((int64_t)x * from_width / width);
             (int64_t)column * width < (int64_t)(x + 1) * from_width; column++) {
            uint64_t weight = row_weight * overlap(column, x, from_width, width);
            const unsigned char *pixel = region->pixels + 3 * ((size_t)row * from_width + column);
            for (int band = 0; band < 3; band++) {
                sums[band] += weight * pixel[band];
            }
        }
    }
    uint64_t area = (uint64_t)from_width * from_height;
    for (int band = 0; band < 3; band++) {
        rgb[band] = (unsigned char)((sums[band] + area / 2) / area);
    }
}

unsigned char *region_resample(const shrunk_region *region, int width, int height) {
    unsigned char *resampled = malloc((size_t)3 * width * height);
    if (resampled == NULL) {
        return NULL;
    }
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            average_area(region, width, height, x, y, resampled + 3 * ((size_t)y * width + x));
        }
    }
    return resampled;
}
