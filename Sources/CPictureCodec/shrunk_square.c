#include "codec_internal.h"

#include <stdlib.h>

int square_start(shrunk_square *square, int width, int height, int least_side) {
    int shorter = MIN(width, height);
    square->factor = MAX(1, shorter / least_side);
    square->side = shorter / square->factor;
    /* The few pixels a whole number of boxes leaves over go with the edges. */
    square->left = (width - square->side * square->factor) / 2;
    square->top = (height - square->side * square->factor) / 2;
    square->sums = calloc(3 * (size_t)square->side, sizeof *square->sums);
    square->pixels = calloc(3 * (size_t)square->side * square->side, 1);
    return square->sums != NULL && square->pixels != NULL ? 0 : -1;
}

/* Half-transparent black on white is mid grey, as a browser shows it on a white page. */
static unsigned int on_white(const unsigned char *pixel, int band, int channels) {
    if (channels == 3) {
        return pixel[band];
    }
    unsigned int alpha = pixel[3];
    return (pixel[band] * alpha + 255 * (255 - alpha) + 127) / 255;
}

void square_add_row(shrunk_square *square, const unsigned char *row, int channels, int y) {
    int kept = square->side * square->factor;
    int row_in_square = y - square->top;
    if (row_in_square < 0 || row_in_square >= kept) {
        return;
    }
    for (int x = 0; x < kept; x++) {
        const unsigned char *pixel = row + (size_t)channels * (square->left + x);
        uint32_t *sum = square->sums + 3 * (x / square->factor);
        for (int band = 0; band < 3; band++) {
            sum[band] += on_white(pixel, band, channels);
        }
    }
    if (row_in_square % square->factor == square->factor - 1) {
        uint32_t area = (uint32_t)(square->factor * square->factor);
        unsigned char *out = square->pixels + (size_t)3 * square->side * (row_in_square / square->factor);
        for (int index = 0; index < 3 * square->side; index++) {
            out[index] = (unsigned char)((square->sums[index] + area / 2) / area);
            square->sums[index] = 0;
        }
    }
}

void square_free(shrunk_square *square) {
    free(square->sums);
    free(square->pixels);
    square->sums = NULL;
    square->pixels = NULL;
}
