#include "codec_internal.h"

#include <stdbool.h>
#include <string.h>

/* A progressive JPEG may have any number of scans, and each is a pass over the whole coefficient
   buffer: thousands of tiny ones would hold a core for minutes. libjpeg-turbo's tools stop at 500. */
enum { most_scans = 500 };

/* Room for libjpeg's own tables and row buffers in `max_memory_to_use`, on top of the
   coefficient buffer the caller allowed. */
enum { working_memory = 1 << 20 };

/* One decode; every call into libjpeg may jump back to the setjmp of the function that made it,
   so it lives outside that function, where the jump cannot lose it. */
typedef struct {
    struct jpeg_decompress_struct info;
    jpeg_errors errors;
    struct jpeg_progress_mgr progress;
} jpeg_reading;

static void count_scans(j_common_ptr common) {
    j_decompress_ptr info = (j_decompress_ptr)common;
    if (info->input_scan_number > most_scans) {
        jpeg_errors_stop(common, "more scans than a picture needs");
    }
}

static void start_reading(jpeg_reading *reading, const void *bytes, size_t length, picture_failure *failure) {
    reading->info.err = jpeg_errors_start(&reading->errors, failure);
    jpeg_create_decompress(&reading->info);
    reading->progress.progress_monitor = count_scans;
    reading->info.progress = &reading->progress;
    jpeg_mem_src(&reading->info, bytes, (unsigned long)length);
}

// MARK: The header

/* What libjpeg allocates for the whole-picture coefficient buffer (jdcoefct.c): each component's
   blocks, rounded up to whole MCUs, of 64 two-byte coefficients. */
static size_t coefficient_bytes(j_decompress_ptr info) {
    size_t total = 0;
    for (int index = 0; index < info->num_components; index++) {
        const jpeg_component_info *component = &info->comp_info[index];
        size_t across = component->width_in_blocks + component->h_samp_factor - 1;
        size_t down = component->height_in_blocks + component->v_samp_factor - 1;
        across -= across % component->h_samp_factor;
        down -= down % component->v_samp_factor;
        total += across * down * sizeof(JBLOCK);
    }
    return total;
}

static void describe_layout(j_decompress_ptr info, picture_header *header) {
    header->width = (int)info->image_width;
    header->height = (int)info->image_height;
    if (!jpeg_has_multiple_scans(info)) {
        header->layout = PICTURE_STREAMS;
        header->whole_frame_bytes = 0;
        return;
    }
    header->layout = info->progressive_mode ? PICTURE_PROGRESSIVE_JPEG : PICTURE_MULTI_SCAN_JPEG;
    header->whole_frame_bytes = coefficient_bytes(info);
}

static int read_header_or_jump(jpeg_reading *reading, const void *bytes, size_t length, picture_header *header,
                               picture_failure *failure) {
    if (setjmp(reading->errors.jump)) {
        return -1;
    }
    start_reading(reading, bytes, length, failure);
    jpeg_read_header(&reading->info, TRUE);
    describe_layout(&reading->info, header);
    return 0;
}

int read_jpeg_header(const void *bytes, size_t length, picture_header *header, picture_failure *failure) {
    jpeg_reading reading = {0};
    int result = read_header_or_jump(&reading, bytes, length, header, failure);
    jpeg_destroy_decompress(&reading.info);
    return result;
}

// MARK: The region

/* The largest reduction libjpeg's IDCT offers (1/8 to 8/8) that leaves the region at least its
   `least_width` across: only rows that small are ever made, and for a baseline JPEG only a few at
   once. */
static void choose_scale(j_decompress_ptr info, const shrunk_region *region) {
    unsigned int across = (unsigned int)region_across(region, (int)info->image_width, (int)info->image_height);
    info->scale_denom = 8;
    info->scale_num = 1;
    while (info->scale_num < 8 && (across * info->scale_num + 7) / 8 < (unsigned int)region->least_width) {
        info->scale_num++;
    }
}

/* libjpeg turns grey and YCbCr into RGB itself, but CMYK (and YCCK) only into CMYK. */
static void choose_colours(j_decompress_ptr info) {
    bool cmyk = info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK;
    info->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
}

/* Adobe's applications write CMYK inverted (0 is full ink) and mark it with their APP14, and
   browsers read it so; other CMYK is taken as it is. In place: RGB takes three quarters of the
   row CMYK took, and each pixel is read before it is written over. */
static void cmyk_to_rgb(unsigned char *row, JDIMENSION width, bool inverted) {
    for (JDIMENSION x = 0; x < width; x++) {
        const unsigned char *cmyk = row + 4 * (size_t)x;
        unsigned int white = inverted ? cmyk[3] : 255u - cmyk[3];
        unsigned char *rgb = row + 3 * (size_t)x;
        for (int band = 0; band < 3; band++) {
            unsigned int colour = inverted ? cmyk[band] : 255u - cmyk[band];
            rgb[band] = (unsigned char)((colour * white + 127) / 255);
        }
    }
}

static void read_rows(j_decompress_ptr info, shrunk_region *region) {
    JDIMENSION width = info->output_width;
    bool cmyk = info->out_color_space == JCS_CMYK;
    JSAMPARRAY rows = (*info->mem->alloc_sarray)((j_common_ptr)info, JPOOL_IMAGE,
                                                 width * (JDIMENSION)info->output_components,
                                                 (JDIMENSION)info->rec_outbuf_height);
    while (info->output_scanline < info->output_height) {
        JDIMENSION first = info->output_scanline;
        JDIMENSION count = jpeg_read_scanlines(info, rows, (JDIMENSION)info->rec_outbuf_height);
        for (JDIMENSION index = 0; index < count; index++) {
            if (cmyk) {
                cmyk_to_rgb(rows[index], width, info->saw_Adobe_marker);
            }
            region_add_row(region, rows[index], 3, (int)(first + index));
        }
    }
}

/* libjpeg keeps only the markers it is asked to keep: APP1, for EXIF. */
static int orientation_in_markers(j_decompress_ptr info) {
    for (jpeg_saved_marker_ptr marker = info->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length > 6 && memcmp(marker->data, "Exif\0\0", 6) == 0) {
            return exif_orientation(marker->data + 6, marker->data_length - 6);
        }
    }
    return 1;
}

static int read_region_or_jump(jpeg_reading *reading, const void *bytes, size_t length, const picture_limits *limits,
                               shrunk_region *region, picture_failure *failure) {
    j_decompress_ptr info = &reading->info;
    if (setjmp(reading->errors.jump)) {
        return -1;
    }
    start_reading(reading, bytes, length, failure);
    jpeg_save_markers(info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(info, TRUE);
    region->orientation = orientation_in_markers(info);
    info->mem->max_memory_to_use = (long)(limits->whole_frame_bytes + working_memory);
    choose_scale(info, region);
    choose_colours(info);
    jpeg_start_decompress(info);
    if (region_start(region, (int)info->image_width, (int)info->image_height, (int)info->output_width,
                     (int)info->output_height)) {
        jpeg_errors_stop((j_common_ptr)info, "out of memory");
    }
    read_rows(info, region);
    /* To the end, so that damage after the last row is an error too. */
    jpeg_finish_decompress(info);
    return 0;
}

int read_jpeg_region(const void *bytes, size_t length, const picture_limits *limits, shrunk_region *region,
                     picture_failure *failure) {
    jpeg_reading reading = {0};
    int result = read_region_or_jump(&reading, bytes, length, limits, region, failure);
    jpeg_destroy_decompress(&reading.info);
    return result;
}

// MARK: The library

static int create_decoder_or_jump(jpeg_reading *reading, picture_failure *failure) {
    if (setjmp(reading->errors.jump)) {
        return -1;
    }
    reading->info.err = jpeg_errors_start(&reading->errors, failure);
    jpeg_create_decompress(&reading->info);
    return 0;
}

int check_libjpeg(picture_failure *failure) {
    jpeg_reading reading = {0};
    int result = create_decoder_or_jump(&reading, failure);
    jpeg_destroy_decompress(&reading.info);
    return result;
}
