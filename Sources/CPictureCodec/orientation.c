#include "codec_internal.h"

#include <stdbool.h>
#include <stdlib.h>

/* Where the pixel shown at (x, y) is stored, in a region stored `width` × `height`, for EXIF's
   orientations (TIFF 6.0): 2 and 4 mirror, 3 turns half round, 6 and 8 a quarter (clockwise and
   back to show), 5 and 7 do both. A square keeps its centre, so turning the centre square of a
   picture gives the centre square of the picture turned. */
static void stored_position(int orientation, int width, int height, int x, int y, int *stored_x, int *stored_y) {
    int right = width - 1;
    int bottom = height - 1;
    switch (orientation) {
    case 2: *stored_x = right - x; *stored_y = y; break;
    case 3: *stored_x = right - x; *stored_y = bottom - y; break;
    case 4: *stored_x = x; *stored_y = bottom - y; break;
    case 5: *stored_x = y; *stored_y = x; break;
    case 6: *stored_x = y; *stored_y = bottom - x; break;
    case 7: *stored_x = right - y; *stored_y = bottom - x; break;
    case 8: *stored_x = right - y; *stored_y = x; break;
    default: *stored_x = x; *stored_y = y;
    }
}

int region_turn_upright(shrunk_region *region) {
    int orientation = region->orientation;
    if (orientation <= 1 || orientation > 8) {
        return 0;
    }
    int width = region->width;
    int height = region->height;
    bool quarter = orientation >= 5;
    int shown_width = quarter ? height : width;
    int shown_height = quarter ? width : height;
    unsigned char *turned = malloc((size_t)3 * width * height);
    if (turned == NULL) {
        return -1;
    }
    for (int y = 0; y < shown_height; y++) {
        for (int x = 0; x < shown_width; x++) {
            int stored_x, stored_y;
            stored_position(orientation, width, height, x, y, &stored_x, &stored_y);
            const unsigned char *from = region->pixels + 3 * ((size_t)stored_y * width + stored_x);
            unsigned char *to = turned + 3 * ((size_t)y * shown_width + x);
            to[0] = from[0];
            to[1] = from[1];
            to[2] = from[2];
        }
    }
    free(region->pixels);
    region->pixels = turned;
    region->width = shown_width;
    region->height = shown_height;
    if (quarter) {
        int picture_width = region->picture_width;
        region->picture_width = region->picture_height;
        region->picture_height = picture_width;
    }
    return 0;
}

int region_grey_upright(shrunk_region *region, picture_grey *grey) {
    int orientation = region->orientation;
    int width = region->width;
    int height = region->height;
    unsigned char *pixels = region->pixels;
    if (orientation > 1 && orientation <= 8) {
        if ((pixels = malloc((size_t)width * height)) == NULL) {
            return -1;
        }
        bool quarter = orientation >= 5;
        int shown_width = quarter ? height : width;
        for (int y = 0; y < (quarter ? width : height); y++) {
            for (int x = 0; x < shown_width; x++) {
                int stored_x, stored_y;
                stored_position(orientation, width, height, x, y, &stored_x, &stored_y);
                pixels[(size_t)y * shown_width + x] = region->pixels[(size_t)stored_y * width + stored_x];
            }
        }
        free(region->pixels);
        width = shown_width;
        height = quarter ? region->width : region->height;
    }
    region->pixels = NULL;
    *grey = (picture_grey){pixels, width, height};
    return 0;
}

static unsigned int read_16(const unsigned char *bytes, int little_endian) {
    return little_endian ? bytes[0] | bytes[1] << 8 : bytes[0] << 8 | bytes[1];
}

static uint32_t read_32(const unsigned char *bytes, int little_endian) {
    return little_endian ? read_16(bytes, 1) | (uint32_t)read_16(bytes + 2, 1) << 16
                         : (uint32_t)read_16(bytes, 0) << 16 | read_16(bytes + 2, 0);
}

/* A TIFF header ("II" little-endian or "MM" big, 42, the first directory's offset), then the
   directory: a count, and 12 bytes an entry (tag, type, count, value). Orientation is tag 0x0112,
   one SHORT (type 3), its value at the start of the value field. */
int exif_orientation(const unsigned char *tiff, size_t length) {
    if (length < 8 || tiff[0] != tiff[1] || (tiff[0] != 'I' && tiff[0] != 'M')) {
        return 1;
    }
    int little_endian = tiff[0] == 'I';
    uint32_t directory = read_32(tiff + 4, little_endian);
    if (read_16(tiff + 2, little_endian) != 42 || directory > length - 2) {
        return 1;
    }
    unsigned int entries = read_16(tiff + directory, little_endian);
    for (size_t entry = directory + 2; entries > 0 && entry + 12 <= length; entry += 12, entries--) {
        if (read_16(tiff + entry, little_endian) == 0x0112 && read_16(tiff + entry + 2, little_endian) == 3) {
            unsigned int orientation = read_16(tiff + entry + 8, little_endian);
            return orientation >= 1 && orientation <= 8 ? (int)orientation : 1;
        }
    }
    return 1;
}
