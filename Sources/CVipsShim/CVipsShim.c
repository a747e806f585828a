#include "CVipsShim.h"

#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <string.h>
#include <vips/vips.h>

// MARK: Starting libvips

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static int start_result = -1;

/* A damaged upload is expected and answered with a sentence; libvips's warnings about it
   (libpng's "Not a PNG file", libjpeg's "premature end of data") would only be noise on stderr. */
static void drop_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer unused) {
    (void)domain;
    (void)level;
    (void)message;
    (void)unused;
}

static void start(void) {
    if (VIPS_INIT("wishlist") != 0) {
        return;
    }
    /* The caller's pool already bounds how many pictures decode at once; more threads per
       picture would multiply the buffers each one holds for little gain at 256 px. */
    vips_concurrency_set(1);
    /* No picture is decoded twice, so cached operations would only hold memory. */
    vips_cache_set_max(0);
    /* Only the loaders we call by name may run. The others (SVG, PDF, GIF, TIFF, the
       ImageMagick module, ...) parse far more than a profile picture needs, and a blocked
       loader fails even when something asks for it by guessing. */
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoad", TRUE);
    vips_operation_block_set("VipsForeignLoadJpeg", FALSE);
    vips_operation_block_set("VipsForeignLoadPng", FALSE);
    vips_operation_block_set("VipsForeignLoadWebp", FALSE);
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, drop_message, NULL);
    start_result = 0;
}

int cvips_start(void) {
    pthread_once(&start_once, start);
    return start_result;
}

// MARK: Reading

/* Opens the picture with its own format's loader. Only the header is read until pixels are
   asked for, and then from top to bottom. `scale` (at most 1) has JPEG decode at that fraction
   of its size (1/2, 1/4 or 1/8) and WebP at any; PNG is only opened here for its header. Data
   cut short is an error, not a picture with a grey bottom. */
static VipsImage *open_picture(const void *bytes, size_t length, cvips_format format, double scale) {
    /* The loaders take a pointer to mutable bytes but only read them. */
    void *buffer = (void *)bytes;
    VipsImage *image = NULL;
    int failed = -1;
    switch (format) {
    case CVIPS_JPEG:
        failed = vips_jpegload_buffer(buffer, length, &image, "access", VIPS_ACCESS_SEQUENTIAL,
                                      "fail_on", VIPS_FAIL_ON_TRUNCATED, "shrink", (int)(1 / scale + 0.5), NULL);
        break;
    case CVIPS_PNG:
        failed = vips_pngload_buffer(buffer, length, &image, "access", VIPS_ACCESS_SEQUENTIAL,
                                     "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
        break;
    case CVIPS_WEBP:
        failed = vips_webpload_buffer(buffer, length, &image, "access", VIPS_ACCESS_SEQUENTIAL,
                                      "fail_on", VIPS_FAIL_ON_TRUNCATED, "scale", scale, NULL);
        break;
    default:
        vips_error("cvips", "unknown format %d", (int)format);
    }
    return failed ? NULL : image;
}

int cvips_read_size(const void *bytes, size_t length, cvips_format format, int *width, int *height) {
    VipsImage *image = open_picture(bytes, length, format, 1.0);
    if (image == NULL) {
        return -1;
    }
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

// MARK: Shrinking

/* libvips's loaders hand rows on through a cache of about 384 rows of the width they load at
   (three strips of 128 in libvips 8.14, whatever the pipeline asks for), and its WebP loader
   holds the whole frame it decodes: memory follows the size loaded, 23 MB for a 20,000 × 2,000
   JPEG at half size, 27 MB for a 4,000 × 10,000 WebP at a quarter. So JPEG rows and WebP sides
   are shrunk while they load to at most this long. Only pictures longer than 4 to 1 notice:
   they keep less than twice the square's side, and past 8 to 1 are enlarged a little. PNG
   cannot shrink as it loads, and is read a row at a time below instead. */
static const int longest_loaded = 2048;

/* The whole factor by which a box filter may shrink `size` and still leave at least twice
   `side`: cheap and streaming, it leaves the last factor of two or more to the thumbnail's
   Lanczos filter, which does it well. */
static int box_factor(int size, int side) {
    int factor = size / (2 * side);
    return factor > 1 ? factor : 1;
}

/* How much smaller than the picture JPEG and WebP are decoded, leaving at least twice `side`
   where the limits above allow: JPEG by a power of two up to 8, as libjpeg shrinks; WebP by
   any amount, as libwebp's scaler averages areas. */
static double load_scale(cvips_format format, int width, int height, int side) {
    int shorter = VIPS_MIN(width, height);
    int factor = box_factor(shorter, side);
    int shrink = 1;

    if (format == CVIPS_WEBP) {
        double scale = VIPS_MIN(2.0 * side / shorter, (double)longest_loaded / VIPS_MAX(width, height));
        return VIPS_MIN(scale, 1.0);
    }
    while (shrink < 8 && (shrink * 2 <= factor || width / shrink > longest_loaded)) {
        shrink *= 2;
    }
    return 1.0 / shrink;
}

// MARK: JPEG and WebP through libvips

static int flatten_onto_white(VipsImage *in, VipsImage **out) {
    VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
    int failed = vips_flatten(in, out, "background", white, NULL);
    vips_area_unref(VIPS_AREA(white));
    return failed;
}

/* The centre columns of `in`, as many as it has rows, cropped before anything else so that
   every step after the loader works on that width alone, however wide the picture. Rows are
   left for the thumbnail to crop once they are shrunk: asking a sequential loader for rows far
   down has it read the rows before them as one region, 54 MB for a 2,000 × 20,000 PNG. */
static int centre_columns(VipsImage *in, VipsImage **out) {
    int width = VIPS_MIN(in->Xsize, in->Ysize);
    return vips_crop(in, out, (in->Xsize - width) / 2, 0, width, in->Ysize, NULL);
}

/* The picture's centre columns, decoded smaller where the format allows, in 8-bit sRGB
   (whatever came in: grey, CMYK) with any transparency flattened onto white, and box-shrunk to
   between two and four times `side` across. Its steps go in steps 0 to 5 of `steps`. */
static int load_shrunk(const void *bytes, size_t length, cvips_format format, int side, VipsImage **steps,
                       VipsImage **out) {
    VipsImage *picture;
    double scale;
    int factor;

    if ((steps[0] = open_picture(bytes, length, format, 1.0)) == NULL) {
        return -1;
    }
    picture = steps[0];
    scale = load_scale(format, picture->Xsize, picture->Ysize, side);
    if (scale < 1) {
        if ((steps[1] = open_picture(bytes, length, format, scale)) == NULL) {
            return -1;
        }
        picture = steps[1];
    }
    if (centre_columns(picture, &steps[2]) || vips_colourspace(steps[2], &steps[3], VIPS_INTERPRETATION_sRGB, NULL)) {
        return -1;
    }
    picture = steps[3];
    if (vips_image_hasalpha(picture)) {
        if (flatten_onto_white(picture, &steps[4])) {
            return -1;
        }
        picture = steps[4];
    }
    factor = box_factor(picture->Xsize, side);
    if (factor > 1) {
        if (vips_shrink(picture, &steps[5], factor, factor, NULL)) {
            return -1;
        }
        picture = steps[5];
    }
    *out = picture;
    return 0;
}

// MARK: PNG through libpng, a row at a time

/* Reads a PNG a row at a time, keeps the centre square, flattens it onto white and averages it
   over boxes of `factor` × `factor` pixels: memory is a row and a row of sums however large the
   picture (through libvips's loader, 48 MB for a 20,000 × 2,000 RGBA picture). An interlaced
   PNG can only be read whole, its rows arriving in seven passes; the caller has checked that
   it fits (DecodingFootprint). Gamma, ICC profiles and an eXIf orientation are ignored: the
   pixels are taken as sRGB, as they are in nearly every PNG. */
typedef struct {
    const unsigned char *bytes;
    size_t length;
    size_t offset;
} png_input;

typedef struct {
    int left, top, factor, side;  /* the square kept, and its side once shrunk */
    unsigned int *sums;           /* a shrunk row's sums, red green blue */
    unsigned char *pixels;        /* the shrunk square */
} box_shrink;

/* Everything a read allocates, on the heap: libpng's errors longjmp out of the read, and
   only what lives outside the function that called setjmp is sure to survive it. */
typedef struct {
    png_structp png;
    png_infop info;
    png_input input;
    unsigned char *rows;
    png_bytep *row_pointers;
    box_shrink box;
    VipsImage *image;
} png_reading;

static void read_png_input(png_structp png, png_bytep out, size_t count) {
    png_input *input = png_get_io_ptr(png);
    if (count > input->length - input->offset) {
        png_error(png, "PNG data cut short");
    }
    memcpy(out, input->bytes + input->offset, count);
    input->offset += count;
}

static void fail_png(png_structp png, png_const_charp message) {
    vips_error("cvips", "%s", message);
    png_longjmp(png, 1);
}

static void ignore_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/* Adds row `y` of the picture, in RGBA, to the sums; every `factor` rows, writes a shrunk row. */
static void add_row(box_shrink *box, const unsigned char *rgba, int y) {
    int row = y - box->top;
    unsigned int area = (unsigned int)(box->factor * box->factor);
    if (row < 0 || row >= box->side * box->factor) {
        return;
    }
    for (int x = 0; x < box->side * box->factor; x++) {
        const unsigned char *pixel = rgba + 4 * (size_t)(box->left + x);
        unsigned int alpha = pixel[3];
        unsigned int *sum = box->sums + 3 * (x / box->factor);
        for (int band = 0; band < 3; band++) {
            sum[band] += (pixel[band] * alpha + 255 * (255 - alpha) + 127) / 255;
        }
    }
    if (row % box->factor == box->factor - 1) {
        unsigned char *out = box->pixels + (size_t)3 * box->side * (row / box->factor);
        for (int i = 0; i < 3 * box->side; i++) {
            out[i] = (unsigned char)((box->sums[i] + area / 2) / area);
            box->sums[i] = 0;
        }
    }
}

static void start_box(png_reading *reading, int width, int height, int side) {
    box_shrink *box = &reading->box;
    int shorter = VIPS_MIN(width, height);
    box->factor = box_factor(shorter, side);
    box->side = shorter / box->factor;
    box->left = (width - box->side * box->factor) / 2;
    box->top = (height - box->side * box->factor) / 2;
    box->sums = g_try_new0(unsigned int, 3 * (size_t)box->side);
    box->pixels = g_try_malloc((size_t)3 * box->side * box->side);
    if (box->sums == NULL || box->pixels == NULL) {
        png_error(reading->png, "out of memory");
    }
}

/* Every call into libpng may longjmp back to `read_png_square`. */
static void read_png_rows(png_reading *reading, int side) {
    png_structp png = reading->png;
    png_uint_32 width, height;
    int passes;

    png_set_read_fn(png, &reading->input, read_png_input);
    png_read_info(png, reading->info);
    /* Whatever the file holds (palette, grey, 1 to 16 bits, transparency), rows of 8-bit RGBA. */
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    passes = png_set_interlace_handling(png);
    png_read_update_info(png, reading->info);
    width = png_get_image_width(png, reading->info);
    height = png_get_image_height(png, reading->info);
    if (png_get_rowbytes(png, reading->info) != (size_t)width * 4) {
        png_error(png, "PNG rows are not RGBA after expansion");
    }
    start_box(reading, (int)width, (int)height, side);
    if (passes == 1) {
        if ((reading->rows = g_try_malloc((size_t)width * 4)) == NULL) {
            png_error(png, "out of memory");
        }
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, reading->rows, NULL);
            add_row(&reading->box, reading->rows, (int)y);
        }
    } else {
        reading->rows = g_try_malloc((size_t)width * 4 * height);
        reading->row_pointers = g_try_new(png_bytep, height);
        if (reading->rows == NULL || reading->row_pointers == NULL) {
            png_error(png, "out of memory");
        }
        for (png_uint_32 y = 0; y < height; y++) {
            reading->row_pointers[y] = reading->rows + (size_t)width * 4 * y;
        }
        png_read_image(png, reading->row_pointers);
        for (png_uint_32 y = 0; y < height; y++) {
            add_row(&reading->box, reading->row_pointers[y], (int)y);
        }
    }
    /* To the end, so that data cut short or a bad checksum after the square is still an error. */
    png_read_end(png, NULL);
    reading->image = vips_image_new_from_memory_copy(reading->box.pixels, (size_t)3 * reading->box.side * reading->box.side,
                                                     reading->box.side, reading->box.side, 3, VIPS_FORMAT_UCHAR);
    if (reading->image == NULL) {
        png_error(png, "out of memory");
    }
}

static VipsImage *read_png_square(const void *bytes, size_t length, int side) {
    png_reading *reading = g_new0(png_reading, 1);
    VipsImage *image;

    reading->input = (png_input){bytes, length, 0};
    reading->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, fail_png, ignore_png_warning);
    if (reading->png != NULL && (reading->info = png_create_info_struct(reading->png)) != NULL) {
        if (setjmp(png_jmpbuf(reading->png)) == 0) {
            read_png_rows(reading, side);
        }
    }
    png_destroy_read_struct(&reading->png, &reading->info, NULL);
    g_free(reading->rows);
    g_free(reading->row_pointers);
    g_free(reading->box.sums);
    g_free(reading->box.pixels);
    image = reading->image;
    g_free(reading);
    return image;
}

// MARK: Square JPEGs

static int square(VipsImage *in, VipsImage **out, int side) {
    return vips_thumbnail_image(in, out, side, "height", side, "crop", VIPS_INTERESTING_CENTRE, NULL);
}

/* `strip` leaves out every piece of metadata: EXIF (and its GPS position), XMP, IPTC, ICC. */
static int encode_jpeg(VipsImage *image, cvips_bytes *out) {
    return vips_jpegsave_buffer(image, &out->bytes, &out->length, "Q", 85, "strip", TRUE, "optimize_coding", TRUE,
                                NULL);
}

/* Each step's image goes in `steps` (nine), which the caller frees whatever happens. */
static int make_square_jpegs(const void *bytes, size_t length, cvips_format format, int large_side, int small_side,
                             VipsImage **steps, cvips_bytes *large, cvips_bytes *small) {
    VipsImage *picture;

    if (format == CVIPS_PNG) {
        if ((steps[0] = read_png_square(bytes, length, large_side)) == NULL) {
            return -1;
        }
        picture = steps[0];
    } else if (load_shrunk(bytes, length, format, large_side, steps, &picture)) {
        return -1;
    }
    /* The thumbnail also turns the picture upright by its EXIF orientation (rotating the centre
       square gives the centre square of the rotated picture). Copying it to memory runs the
       decode, once: the small size is made from the large. */
    if (square(picture, &steps[6], large_side) || (steps[7] = vips_image_copy_memory(steps[6])) == NULL
        || square(steps[7], &steps[8], small_side)) {
        return -1;
    }
    return encode_jpeg(steps[7], large) || encode_jpeg(steps[8], small) ? -1 : 0;
}

int cvips_square_jpegs(const void *bytes, size_t length, cvips_format format, int large_side, int small_side,
                       cvips_bytes *large, cvips_bytes *small) {
    VipsImage *scope = vips_image_new();
    VipsImage **steps = (VipsImage **)vips_object_local_array(VIPS_OBJECT(scope), 9);
    int result;

    *large = (cvips_bytes){NULL, 0};
    *small = (cvips_bytes){NULL, 0};
    result = make_square_jpegs(bytes, length, format, large_side, small_side, steps, large, small);
    /* Unreferencing the scope unreferences every step. */
    g_object_unref(scope);
    if (result != 0) {
        g_free(large->bytes);
        g_free(small->bytes);
        *large = (cvips_bytes){NULL, 0};
        *small = (cvips_bytes){NULL, 0};
    }
    return result;
}

void cvips_free(void *bytes) {
    g_free(bytes);
}

char *cvips_take_error(void) {
    char *text = vips_error_buffer_copy();
    if (text != NULL && text[0] == '\0') {
        g_free(text);
        return NULL;
    }
    return text;
}

// MARK: For the tests

/* Stripe i covers the columns (or rows) where x * colour_count / width truncates to i; a lookup
   table gives its colour. Every step is lazy: pixels exist only while the encoder asks for them. */
static int make_stripes(int width, int height, const unsigned char *colours, int colour_count, int horizontal,
                        int with_alpha, VipsImage **steps, VipsImage **out) {
    int across = horizontal ? height : width;
    if (vips_xyz(&steps[0], width, height, NULL) || vips_extract_band(steps[0], &steps[1], horizontal ? 1 : 0, NULL)
        || vips_linear1(steps[1], &steps[2], (double)colour_count / across, 0, NULL)
        || vips_cast(steps[2], &steps[3], VIPS_FORMAT_UCHAR, NULL)) {
        return -1;
    }
    steps[4] = vips_image_new_from_memory_copy(colours, (size_t)colour_count * 3, colour_count, 1, 3,
                                               VIPS_FORMAT_UCHAR);
    if (steps[4] == NULL || vips_maplut(steps[3], &steps[5], steps[4], NULL)
        || vips_copy(steps[5], &steps[6], "interpretation", VIPS_INTERPRETATION_sRGB, NULL)) {
        return -1;
    }
    if (!with_alpha) {
        *out = steps[6];
        return 0;
    }
    if (vips_bandjoin_const1(steps[6], &steps[7], 128, NULL)) {
        return -1;
    }
    *out = steps[7];
    return 0;
}

static int encode_test_picture(VipsImage *picture, cvips_format format, int whole_frame_layout, cvips_bytes *out) {
    switch (format) {
    case CVIPS_JPEG:
        return vips_jpegsave_buffer(picture, &out->bytes, &out->length, "Q", 90, "interlace", whole_frame_layout, NULL);
    case CVIPS_PNG:
        return vips_pngsave_buffer(picture, &out->bytes, &out->length, "compression", 1, "interlace",
                                   whole_frame_layout, NULL);
    case CVIPS_WEBP:
        return vips_webpsave_buffer(picture, &out->bytes, &out->length, "lossless", whole_frame_layout, "effort", 0,
                                    NULL);
    default:
        vips_error("cvips", "unknown format %d", (int)format);
        return -1;
    }
}

int cvips_test_picture(cvips_format format, int width, int height, const unsigned char *colours, int colour_count,
                       int horizontal, int with_alpha, int whole_frame_layout, cvips_bytes *out) {
    VipsImage *scope = vips_image_new();
    VipsImage **steps = (VipsImage **)vips_object_local_array(VIPS_OBJECT(scope), 8);
    VipsImage *picture;
    int result;

    *out = (cvips_bytes){NULL, 0};
    result = make_stripes(width, height, colours, colour_count, horizontal, with_alpha, steps, &picture)
        || encode_test_picture(picture, format, whole_frame_layout, out) ? -1 : 0;
    g_object_unref(scope);
    return result;
}

int cvips_test_pixel(const void *jpeg, size_t length, int x, int y, unsigned char rgb[3]) {
    VipsImage *image;
    double *values = NULL;
    int count = 0;
    int failed;

    if (vips_jpegload_buffer((void *)jpeg, length, &image, NULL)) {
        return -1;
    }
    failed = vips_getpoint(image, &values, &count, x, y, NULL);
    g_object_unref(image);
    if (failed || count < 3) {
        g_free(values);
        return -1;
    }
    for (int band = 0; band < 3; band++) {
        rgb[band] = (unsigned char)values[band];
    }
    g_free(values);
    return 0;
}
