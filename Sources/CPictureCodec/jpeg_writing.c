#include "codec_internal.h"

#include <jerror.h>
#include <stdlib.h>

/* Where a profile picture's quality stops showing at 256 pixels. */
enum { quality = 85 };

// MARK: A growing buffer

static void start_buffer(j_compress_ptr info) {
    growing_destination *destination = (growing_destination *)info->dest;
    destination->capacity = 16 * 1024;
    if ((destination->buffer = malloc(destination->capacity)) == NULL) {
        ERREXIT1(info, JERR_OUT_OF_MEMORY, 0);
    }
    destination->manager.next_output_byte = destination->buffer;
    destination->manager.free_in_buffer = destination->capacity;
}

/* libjpeg calls this when the buffer is full: it doubles, keeping what was written. */
static boolean grow_buffer(j_compress_ptr info) {
    growing_destination *destination = (growing_destination *)info->dest;
    unsigned char *larger = realloc(destination->buffer, 2 * destination->capacity);
    if (larger == NULL) {
        ERREXIT1(info, JERR_OUT_OF_MEMORY, 1);
    }
    destination->buffer = larger;
    destination->manager.next_output_byte = larger + destination->capacity;
    destination->manager.free_in_buffer = destination->capacity;
    destination->capacity *= 2;
    return TRUE;
}

/* The length is what the buffer's capacity less what is free: nothing to do at the end. */
static void finish_buffer(j_compress_ptr info) {
    (void)info;
}

void growing_destination_attach(j_compress_ptr info, growing_destination *destination) {
    destination->manager.init_destination = start_buffer;
    destination->manager.empty_output_buffer = grow_buffer;
    destination->manager.term_destination = finish_buffer;
    info->dest = &destination->manager;
}

picture_bytes growing_destination_take(growing_destination *destination) {
    picture_bytes taken = {destination->buffer, destination->capacity - destination->manager.free_in_buffer};
    destination->buffer = NULL;
    return taken;
}

// MARK: A picture

/* One encode; libjpeg's errors jump back to the setjmp of the function that made it, so it lives
   outside that function, where the jump cannot lose it. */
typedef struct {
    struct jpeg_compress_struct info;
    jpeg_errors errors;
    growing_destination destination;
} jpeg_writing;

static int write_or_jump(jpeg_writing *writing, const unsigned char *rgb, int width, int height,
                         picture_failure *failure) {
    j_compress_ptr info = &writing->info;
    if (setjmp(writing->errors.jump)) {
        return -1;
    }
    info->err = jpeg_errors_start(&writing->errors, failure);
    jpeg_create_compress(info);
    growing_destination_attach(info, &writing->destination);
    info->image_width = (JDIMENSION)width;
    info->image_height = (JDIMENSION)height;
    info->input_components = 3;
    info->in_color_space = JCS_RGB;
    /* JFIF's APP0 is the only marker the defaults write, and none is added here: no EXIF (and
       its GPS position), no XMP, no ICC profile, no comment leaves the server. */
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    info->optimize_coding = TRUE;
    jpeg_start_compress(info, TRUE);
    while (info->next_scanline < info->image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)3 * width * info->next_scanline);
        jpeg_write_scanlines(info, &row, 1);
    }
    jpeg_finish_compress(info);
    return 0;
}

int write_bare_jpeg(const unsigned char *rgb, int width, int height, picture_bytes *out, picture_failure *failure) {
    jpeg_writing writing = {0};
    int result = write_or_jump(&writing, rgb, width, height, failure);
    if (result == 0) {
        *out = growing_destination_take(&writing.destination);
    }
    jpeg_destroy_compress(&writing.info);
    free(writing.destination.buffer);
    return result;
}
