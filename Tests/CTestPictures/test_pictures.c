// For the tests only (TestPictures.h), in a target only the test target depends on; it reaches the
// codec's own libjpeg error handling through its internal header.

#include "TestPictures.h"
#include "codec_internal.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>

// MARK: Stripes, or given grey pixels

/* What is drawn: the recipe's stripes, or with `grey` (width × height bytes, row by row) those
   pixels, in the recipe's format and colours. */
typedef struct {
    const test_picture_recipe *recipe;
    const unsigned char *grey;
} drawing;

static int colour_channels(const test_picture_recipe *recipe) {
    switch (recipe->colours) {
    case TEST_PICTURE_GREY: return 1;
    case TEST_PICTURE_CMYK: return 4;
    default: return 3;
    }
}

static int channels(const test_picture_recipe *recipe) {
    return colour_channels(recipe) + (recipe->with_alpha ? 1 : 0);
}

/* Stripe i covers the columns (or rows) where position × stripe_count / width truncates to i. */
static const unsigned char *stripe_at(const test_picture_recipe *recipe, int x, int y) {
    int64_t across = recipe->horizontal ? recipe->height : recipe->width;
    int64_t position = recipe->horizontal ? y : x;
    return recipe->stripes + 3 * (position * recipe->stripe_count / across);
}

/* Inverted CMYK with no black is the RGB bytes themselves, then 255. */
static void fill_row(const drawing *drawing, int y, unsigned char *row) {
    const test_picture_recipe *recipe = drawing->recipe;
    int count = channels(recipe);
    for (int x = 0; x < recipe->width; x++) {
        unsigned char given[3];
        const unsigned char *rgb = stripe_at(recipe, x, y);
        if (drawing->grey != NULL) {
            memset(given, drawing->grey[(size_t)y * recipe->width + x], 3);
            rgb = given;
        }
        unsigned char *pixel = row + (size_t)count * x;
        memcpy(pixel, rgb, recipe->colours == TEST_PICTURE_GREY ? 1 : 3);
        if (recipe->colours == TEST_PICTURE_CMYK) {
            pixel[3] = 255;
        }
        if (recipe->with_alpha) {
            pixel[count - 1] = 128;
        }
    }
}

// MARK: JPEG

typedef struct {
    struct jpeg_compress_struct info;
    jpeg_errors errors;
    picture_failure failure;
    growing_destination destination;
    unsigned char *row;
} test_jpeg_writing;

static J_COLOR_SPACE jpeg_colours(const test_picture_recipe *recipe) {
    switch (recipe->colours) {
    case TEST_PICTURE_GREY: return JCS_GRAYSCALE;
    case TEST_PICTURE_CMYK: return JCS_CMYK;
    default: return JCS_RGB;
    }
}

static int write_jpeg_or_jump(test_jpeg_writing *writing, const drawing *drawing) {
    const test_picture_recipe *recipe = drawing->recipe;
    j_compress_ptr info = &writing->info;
    if (setjmp(writing->errors.jump)) {
        return -1;
    }
    info->err = jpeg_errors_start(&writing->errors, &writing->failure);
    jpeg_create_compress(info);
    growing_destination_attach(info, &writing->destination);
    info->image_width = (JDIMENSION)recipe->width;
    info->image_height = (JDIMENSION)recipe->height;
    info->input_components = colour_channels(recipe);
    info->in_color_space = jpeg_colours(recipe);
    jpeg_set_defaults(info);
    jpeg_set_quality(info, 90, TRUE);
    if (recipe->whole_frame_layout) {
        jpeg_simple_progression(info);
    }
    jpeg_start_compress(info, TRUE);
    if ((writing->row = malloc((size_t)recipe->width * 4)) == NULL) {
        jpeg_errors_stop((j_common_ptr)info, "out of memory");
    }
    while (info->next_scanline < info->image_height) {
        fill_row(drawing, (int)info->next_scanline, writing->row);
        jpeg_write_scanlines(info, &writing->row, 1);
    }
    jpeg_finish_compress(info);
    return 0;
}

static int write_jpeg(const drawing *drawing, picture_bytes *out) {
    test_jpeg_writing writing = {0};
    int result = drawing->recipe->with_alpha ? -1 : write_jpeg_or_jump(&writing, drawing);
    if (result == 0) {
        *out = growing_destination_take(&writing.destination);
    }
    jpeg_destroy_compress(&writing.info);
    free(writing.destination.buffer);
    free(writing.row);
    return result;
}

// MARK: PNG

typedef struct {
    png_structp png;
    png_infop info;
    unsigned char *bytes;
    size_t length;
    size_t capacity;
    unsigned char *row;
} test_png_writing;

static void append(png_structp png, png_bytep data, size_t count) {
    test_png_writing *writing = png_get_io_ptr(png);
    if (count > writing->capacity - writing->length) {
        size_t capacity = MAX(2 * writing->capacity, writing->length + count);
        unsigned char *larger = realloc(writing->bytes, capacity);
        if (larger == NULL) {
            png_error(png, "out of memory");
        }
        writing->bytes = larger;
        writing->capacity = capacity;
    }
    memcpy(writing->bytes + writing->length, data, count);
    writing->length += count;
}

static void flush_nothing(png_structp png) {
    (void)png;
}

static int png_colour_type(const test_picture_recipe *recipe) {
    if (recipe->colours == TEST_PICTURE_GREY) {
        return recipe->with_alpha ? PNG_COLOR_TYPE_GRAY_ALPHA : PNG_COLOR_TYPE_GRAY;
    }
    return recipe->with_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB;
}

/* An interlaced PNG takes every row once a pass; libpng keeps the ones each pass needs. */
static int write_png_or_jump(test_png_writing *writing, const drawing *drawing) {
    const test_picture_recipe *recipe = drawing->recipe;
    png_structp png = writing->png;
    if (setjmp(png_jmpbuf(png))) {
        return -1;
    }
    png_set_write_fn(png, writing, append, flush_nothing);
    png_set_IHDR(png, writing->info, (png_uint_32)recipe->width, (png_uint_32)recipe->height, 8,
                 png_colour_type(recipe), recipe->whole_frame_layout ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 1);
    png_write_info(png, writing->info);
    int passes = png_set_interlace_handling(png);
    if ((writing->row = malloc((size_t)recipe->width * 4)) == NULL) {
        png_error(png, "out of memory");
    }
    for (int pass = 0; pass < passes; pass++) {
        for (int y = 0; y < recipe->height; y++) {
            fill_row(drawing, y, writing->row);
            png_write_row(png, writing->row);
        }
    }
    png_write_end(png, NULL);
    return 0;
}

static int write_png(const drawing *drawing, picture_bytes *out) {
    const test_picture_recipe *recipe = drawing->recipe;
    test_png_writing writing = {0};
    int result = -1;
    writing.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (writing.png != NULL && (writing.info = png_create_info_struct(writing.png)) != NULL
        && recipe->colours != TEST_PICTURE_CMYK) {
        result = write_png_or_jump(&writing, drawing);
    }
    png_destroy_write_struct(&writing.png, &writing.info);
    free(writing.row);
    if (result == 0) {
        *out = (picture_bytes){writing.bytes, writing.length};
    } else {
        free(writing.bytes);
    }
    return result;
}

// MARK: WebP

/* libwebp's encoder takes the whole picture at once. */
static unsigned char *whole_picture(const drawing *drawing) {
    const test_picture_recipe *recipe = drawing->recipe;
    size_t row_bytes = (size_t)recipe->width * channels(recipe);
    unsigned char *pixels = malloc(row_bytes * recipe->height);
    for (int y = 0; pixels != NULL && y < recipe->height; y++) {
        fill_row(drawing, y, pixels + row_bytes * y);
    }
    return pixels;
}

static int encode_webp(const test_picture_recipe *recipe, const unsigned char *pixels, WebPMemoryWriter *writer) {
    WebPConfig config;
    WebPPicture picture;
    if (!WebPConfigInit(&config) || !WebPPictureInit(&picture)) {
        return -1;
    }
    config.lossless = recipe->whole_frame_layout;
    config.method = 0;
    picture.use_argb = config.lossless;
    picture.width = recipe->width;
    picture.height = recipe->height;
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = writer;
    int stride = recipe->width * channels(recipe);
    int imported = recipe->with_alpha ? WebPPictureImportRGBA(&picture, pixels, stride)
                                      : WebPPictureImportRGB(&picture, pixels, stride);
    int encoded = imported && WebPEncode(&config, &picture);
    WebPPictureFree(&picture);
    return encoded ? 0 : -1;
}

/* Copied, so that picture_free (free) frees it whatever allocator libwebp uses. */
static int write_webp(const drawing *drawing, picture_bytes *out) {
    const test_picture_recipe *recipe = drawing->recipe;
    WebPMemoryWriter writer;
    unsigned char *pixels = recipe->colours == TEST_PICTURE_RGB ? whole_picture(drawing) : NULL;
    int result = -1;
    WebPMemoryWriterInit(&writer);
    if (pixels != NULL && encode_webp(recipe, pixels, &writer) == 0 && (out->bytes = malloc(writer.size)) != NULL) {
        memcpy(out->bytes, writer.mem, writer.size);
        out->length = writer.size;
        result = 0;
    }
    WebPMemoryWriterClear(&writer);
    free(pixels);
    return result;
}

static int encode(const drawing *drawing, picture_bytes *out) {
    *out = (picture_bytes){NULL, 0};
    switch (drawing->recipe->format) {
    case PICTURE_JPEG: return write_jpeg(drawing, out);
    case PICTURE_PNG: return write_png(drawing, out);
    case PICTURE_WEBP: return write_webp(drawing, out);
    default: return -1;
    }
}

int test_picture_encode(const test_picture_recipe *recipe, picture_bytes *out) {
    drawing stripes = {recipe, NULL};
    return encode(&stripes, out);
}

int test_picture_encode_grey(const test_picture_recipe *recipe, const unsigned char *grey, picture_bytes *out) {
    drawing pixels = {recipe, grey};
    return encode(&pixels, out);
}

// MARK: Reading a pixel back

typedef struct {
    struct jpeg_decompress_struct info;
    jpeg_errors errors;
    picture_failure failure;
} test_jpeg_reading;

static int read_pixel_or_jump(test_jpeg_reading *reading, const void *jpeg, size_t length, int x, int y,
                              unsigned char rgb[3]) {
    j_decompress_ptr info = &reading->info;
    if (setjmp(reading->errors.jump)) {
        return -1;
    }
    info->err = jpeg_errors_start(&reading->errors, &reading->failure);
    jpeg_create_decompress(info);
    jpeg_mem_src(info, jpeg, (unsigned long)length);
    jpeg_read_header(info, TRUE);
    info->out_color_space = JCS_RGB;
    jpeg_start_decompress(info);
    if (x < 0 || y < 0 || (JDIMENSION)x >= info->output_width || (JDIMENSION)y >= info->output_height) {
        jpeg_errors_stop((j_common_ptr)info, "outside the picture");
    }
    JSAMPARRAY row = (*info->mem->alloc_sarray)((j_common_ptr)info, JPOOL_IMAGE, info->output_width * 3, 1);
    while (info->output_scanline <= (JDIMENSION)y) {
        jpeg_read_scanlines(info, row, 1);
    }
    memcpy(rgb, row[0] + 3 * (size_t)x, 3);
    return 0;
}

int test_picture_pixel(const void *jpeg, size_t length, int x, int y, unsigned char rgb[3]) {
    test_jpeg_reading reading = {0};
    int result = read_pixel_or_jump(&reading, jpeg, length, x, y, rgb);
    jpeg_destroy_decompress(&reading.info);
    return result;
}
