#include "codec_internal.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

/* Ancillary chunks (text, ICC profiles, sPLT) are never used here; libpng may allocate this much
   for one before it skips it, instead of its default 8 MB. */
enum { largest_chunk = 1 << 20 };

/* One read. Every call into libpng may jump back to the setjmp of the function that made it, so
   what must be freed after the jump lives here, outside that function. */
typedef struct {
    png_structp png;
    png_infop info;
    const unsigned char *bytes;
    size_t length;
    size_t offset;
    picture_failure *failure;
    /* One row, or an interlaced picture's every row, and pointers to them. */
    unsigned char *rows;
    png_bytep *row_pointers;
} png_reading;

static void read_input(png_structp png, png_bytep out, size_t count) {
    png_reading *reading = png_get_io_ptr(png);
    if (count > reading->length - reading->offset) {
        png_error(png, "PNG data cut short");
    }
    memcpy(out, reading->bytes + reading->offset, count);
    reading->offset += count;
}

static void jump_back(png_structp png, png_const_charp message) {
    png_reading *reading = png_get_error_ptr(png);
    set_failure(reading->failure, message);
    png_longjmp(png, 1);
}

/* A warning is about a chunk libpng skipped (a bad CRC on text, an odd ICC profile): the
   picture is still whole. */
static void ignore_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static int start_reading(png_reading *reading) {
    reading->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reading, jump_back, ignore_warning);
    if (reading->png == NULL || (reading->info = png_create_info_struct(reading->png)) == NULL) {
        return set_failure(reading->failure, "libpng could not start (out of memory, or another version)");
    }
    png_set_read_fn(reading->png, reading, read_input);
    png_set_chunk_malloc_max(reading->png, largest_chunk);
    return 0;
}

static void finish_reading(png_reading *reading) {
    png_destroy_read_struct(&reading->png, &reading->info, NULL);
    free(reading->rows);
    free(reading->row_pointers);
}

/* Rows of 8-bit RGBA as libpng delivers them interlaced, with their pointers. */
static size_t whole_frame_bytes(png_uint_32 width, png_uint_32 height) {
    return ((size_t)width * 4 + sizeof(png_bytep)) * height;
}

// MARK: The header

static int read_header_or_jump(png_reading *reading, picture_header *header) {
    if (setjmp(png_jmpbuf(reading->png))) {
        return -1;
    }
    png_read_info(reading->png, reading->info);
    header->width = (int)png_get_image_width(reading->png, reading->info);
    header->height = (int)png_get_image_height(reading->png, reading->info);
    if (png_get_interlace_type(reading->png, reading->info) == PNG_INTERLACE_NONE) {
        header->layout = PICTURE_STREAMS;
        header->whole_frame_bytes = 0;
    } else {
        header->layout = PICTURE_INTERLACED_PNG;
        header->whole_frame_bytes = whole_frame_bytes((png_uint_32)header->width, (png_uint_32)header->height);
    }
    return 0;
}

int read_png_header(const void *bytes, size_t length, picture_header *header, picture_failure *failure) {
    png_reading reading = {.bytes = bytes, .length = length, .failure = failure};
    int result = start_reading(&reading) ? -1 : read_header_or_jump(&reading, header);
    finish_reading(&reading);
    return result;
}

// MARK: The region

/* Whatever the file holds (palette, grey, 1 to 16 bits, tRNS transparency), rows of 8-bit RGBA.
   Gamma, ICC profiles and an eXIf orientation are not applied: the pixels are taken as sRGB,
   as they are in nearly every PNG. Returns the number of passes. */
static int ask_for_rgba(png_structp png, png_infop info) {
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)png_get_image_width(png, info) * 4) {
        png_error(png, "PNG rows are not RGBA after expansion");
    }
    return passes;
}

static void read_row_by_row(png_reading *reading, png_uint_32 width, png_uint_32 height, shrunk_region *region) {
    if ((reading->rows = malloc((size_t)width * 4)) == NULL) {
        png_error(reading->png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) {
        png_read_row(reading->png, reading->rows, NULL);
        region_add_row(region, reading->rows, 4, (int)y);
    }
}

/* An interlaced PNG's rows arrive in seven passes over the whole picture, so it is read whole;
   the caller checked its footprint, and this checks it again where it is allocated. */
static void read_whole(png_reading *reading, png_uint_32 width, png_uint_32 height, const picture_limits *limits,
                       shrunk_region *region) {
    if (whole_frame_bytes(width, height) > limits->whole_frame_bytes) {
        png_error(reading->png, "interlaced PNG over the memory limit");
    }
    reading->rows = malloc((size_t)width * 4 * height);
    reading->row_pointers = malloc(sizeof(png_bytep) * height);
    if (reading->rows == NULL || reading->row_pointers == NULL) {
        png_error(reading->png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) {
        reading->row_pointers[y] = reading->rows + (size_t)width * 4 * y;
    }
    png_read_image(reading->png, reading->row_pointers);
    for (png_uint_32 y = 0; y < height; y++) {
        region_add_row(region, reading->row_pointers[y], 4, (int)y);
    }
}

static int read_region_or_jump(png_reading *reading, const picture_limits *limits, shrunk_region *region) {
    png_structp png = reading->png;
    if (setjmp(png_jmpbuf(png))) {
        return -1;
    }
    png_set_user_limits(png, (png_uint_32)limits->longest_side, (png_uint_32)limits->longest_side);
    png_read_info(png, reading->info);
    int passes = ask_for_rgba(png, reading->info);
    png_uint_32 width = png_get_image_width(png, reading->info);
    png_uint_32 height = png_get_image_height(png, reading->info);
    if (region_start(region, (int)width, (int)height, (int)width, (int)height)) {
        png_error(png, "out of memory");
    }
    if (passes == 1) {
        read_row_by_row(reading, width, height, region);
    } else {
        read_whole(reading, width, height, limits, region);
    }
    /* To the end, so that data cut short or a bad checksum after the last row is an error too. */
    png_read_end(png, NULL);
    return 0;
}

int read_png_region(const void *bytes, size_t length, const picture_limits *limits, shrunk_region *region,
                    picture_failure *failure) {
    png_reading reading = {.bytes = bytes, .length = length, .failure = failure};
    int result = start_reading(&reading) ? -1 : read_region_or_jump(&reading, limits, region);
    finish_reading(&reading);
    return result;
}

// MARK: The library

int check_libpng(picture_failure *failure) {
    png_reading reading = {.failure = failure};
    int result = start_reading(&reading);
    finish_reading(&reading);
    return result;
}
