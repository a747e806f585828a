#include "codec_internal.h"

#include <math.h>
#include <stdlib.h>

/* The grey pictures a barcode is looked for in, besides the photo as read: the same at half the
   size (the mean of each 2 × 2 pixels, which halves the noise a phone's sensor leaves between
   bars) and turned (for a barcode at about 45°, which no row or column crosses whole). */

int picture_grey_halved(const picture_grey *grey, picture_grey *halved) {
    int width = grey->width / 2;
    int height = grey->height / 2;
    *halved = (picture_grey){NULL, 0, 0};
    if (width < 1 || height < 1) {
        return -1;
    }
    unsigned char *pixels = malloc((size_t)width * height);
    if (pixels == NULL) {
        return -1;
    }
    for (int y = 0; y < height; y++) {
        const unsigned char *top = grey->pixels + (size_t)2 * y * grey->width;
        const unsigned char *bottom = top + grey->width;
        for (int x = 0; x < width; x++) {
            unsigned int sum = top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1];
            pixels[(size_t)y * width + x] = (unsigned char)((sum + 2) / 4);
        }
    }
    *halved = (picture_grey){pixels, width, height};
    return 0;
}

/* The grey value at (x, y), a point between pixel centres, weighted from the four around it;
   outside the picture is white, the paper a barcode is printed on. */
static double sample(const picture_grey *grey, double x, double y) {
    int left = (int)floor(x);
    int top = (int)floor(y);
    double across = x - left;
    double down = y - top;
    double sum = 0;
    for (int row = 0; row < 2; row++) {
        for (int column = 0; column < 2; column++) {
            int at_x = left + column;
            int at_y = top + row;
            double value = at_x >= 0 && at_y >= 0 && at_x < grey->width && at_y < grey->height
                               ? grey->pixels[(size_t)at_y * grey->width + at_x]
                               : 255;
            sum += value * (column ? across : 1 - across) * (row ? down : 1 - down);
        }
    }
    return sum;
}

int picture_grey_turned(const picture_grey *grey, double degrees, picture_grey *turned) {
    double radians = degrees * M_PI / 180;
    double cosine = cos(radians);
    double sine = sin(radians);
    int width = (int)ceil(fabs(grey->width * cosine) + fabs(grey->height * sine));
    int height = (int)ceil(fabs(grey->width * sine) + fabs(grey->height * cosine));
    *turned = (picture_grey){NULL, 0, 0};
    unsigned char *pixels = malloc((size_t)MAX(width, 1) * MAX(height, 1));
    if (pixels == NULL) {
        return -1;
    }
    double from_centre_x = (grey->width - 1) / 2.0;
    double from_centre_y = (grey->height - 1) / 2.0;
    double to_centre_x = (width - 1) / 2.0;
    double to_centre_y = (height - 1) / 2.0;
    /* Each pixel of the turned picture is found in the original by turning it back. */
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            double dx = x - to_centre_x;
            double dy = y - to_centre_y;
            double from_x = from_centre_x + dx * cosine + dy * sine;
            double from_y = from_centre_y - dx * sine + dy * cosine;
            pixels[(size_t)y * width + x] = (unsigned char)(sample(grey, from_x, from_y) + 0.5);
        }
    }
    *turned = (picture_grey){pixels, width, height};
    return 0;
}
