// JPEG decoding through libjpeg-turbo's decompression API, with its errors
// turned into one vit::Error: libjpeg reports a fatal error through a
// callback that must not return, so the decoder runs between setjmp and
// longjmp in one function that holds no C++ object of its own.
#include "formats/jpeg_decode.h"

#include <csetjmp>
#include <cstdio>  // before jpeglib.h, which needs FILE and size_t

#include <jerror.h>
#include <jpeglib.h>

#include "base/bounds.h"
#include "base/error.h"

namespace vit {

namespace {

// As libjpeg-turbo's own fuzz targets: each progressive scan walks the whole
// image again, so a small file of many thousands of scans would take minutes.
constexpr int kMaxScans = 500;

struct ErrorManager {
    jpeg_error_mgr base;  // first, so libjpeg's pointer to it is a pointer to this
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void return_to_decoder(j_common_ptr cinfo) {
    auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
    std::longjmp(err->jump, 1);
}

[[noreturn]] void stop_on_error(j_common_ptr cinfo) {
    (*cinfo->err->format_message)(cinfo, reinterpret_cast<ErrorManager*>(cinfo->err)->message);
    return_to_decoder(cinfo);
}

// Warnings (level −1) that mean pixel data is missing or damaged stop the
// decoder: libjpeg would fill the rest with grey and say nothing. Others (an
// unknown JFIF revision, stray bytes between segments) are decoded past, as
// PIL does.
void stop_on_lost_data(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    switch (cinfo->err->msg_code) {
        case JWRN_HIT_MARKER:
        case JWRN_JPEG_EOF:
        case JWRN_HUFF_BAD_CODE:
        case JWRN_MUST_RESYNC: stop_on_error(cinfo);
        default: return;
    }
}

void stop_past_scan_limit(j_common_ptr cinfo) {
    const auto* decompress = reinterpret_cast<j_decompress_ptr>(cinfo);
    if (decompress->input_scan_number <= kMaxScans) return;
    std::snprintf(reinterpret_cast<ErrorManager*>(cinfo->err)->message, sizeof ErrorManager::message,
                  "more than %d scans", kMaxScans);
    return_to_decoder(cinfo);
}

// PIL's CMYK → RGB (r = (255 − c)(255 − k) / 255); Adobe's files store the
// four inks inverted, which PIL reads as "CMYK;I".
void cmyk_to_rgb(JpegPixels& pixels, bool inverted) {
    const size_t count = static_cast<size_t>(pixels.width) * static_cast<size_t>(pixels.height);
    for (size_t i = 0; i < count; ++i) {
        const uint8_t* ink = pixels.data.data() + 4 * i;
        const int k = inverted ? ink[3] : 255 - ink[3];
        for (int c = 0; c < 3; ++c) {
            const int paper = inverted ? ink[c] : 255 - ink[c];
            pixels.data[3 * i + c] = static_cast<uint8_t>((paper * k + 127) / 255);
        }
    }
    pixels.components = 3;
    pixels.data.resize(3 * count);
}

// Decodes into `out` (which the caller owns, so longjmp skips no destructor);
// false with the reason in err.message when libjpeg gives up.
bool run_libjpeg(const uint8_t* bytes, size_t size, int64_t max_pixels, ErrorManager& err, JpegPixels& out) {
    jpeg_decompress_struct cinfo{};
    jpeg_progress_mgr progress{};
    cinfo.err = jpeg_std_error(&err.base);
    err.base.error_exit = stop_on_error;
    err.base.emit_message = stop_on_lost_data;
    progress.progress_monitor = stop_past_scan_limit;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    jpeg_create_decompress(&cinfo);
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, bytes, static_cast<unsigned long>(size));
    jpeg_read_header(&cinfo, TRUE);
    out.width = static_cast<int>(cinfo.image_width);
    out.height = static_cast<int>(cinfo.image_height);
    if (out.width > max_pixels / out.height) {  // sides are 1..65500, checked by libjpeg
        jpeg_destroy_decompress(&cinfo);
        return true;  // the size alone
    }
    const bool cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cinfo.jpeg_color_space == JCS_GRAYSCALE ? JCS_GRAYSCALE : cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(&cinfo);
    out.components = cinfo.output_components;
    const size_t stride = static_cast<size_t>(out.width) * static_cast<size_t>(out.components);
    out.data.resize(stride * static_cast<size_t>(out.height));
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = out.data.data() + stride * cinfo.output_scanline;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    const bool inverted_cmyk = cmyk && cinfo.saw_Adobe_marker;
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (cmyk) cmyk_to_rgb(out, inverted_cmyk);  // libjpeg is done: nothing can jump past this
    return true;
}

}  // namespace

bool is_jpeg(const uint8_t* bytes, size_t size) {
    if (size < 2 || bytes[0] != 0xFF) return false;
    size_t at = 1;
    while (at < size && bytes[at] == 0xFF) ++at;
    return at < size && bytes[at] == 0xD8;
}

JpegPixels decode_jpeg(const uint8_t* bytes, size_t size, const std::string& name, int64_t max_pixels) {
    size_t start = 0;  // libjpeg wants the start-of-image marker first: skip stb_image's fill bytes
    while (bytes[start + 1] == 0xFF) ++start;
    ErrorManager err{};
    JpegPixels pixels;
    if (!run_libjpeg(bytes + start, size - start, max_pixels, err, pixels))
        throw Error(name + ": cannot decode the image (truncated or corrupt): " + err.message);
    return pixels;
}

}  // namespace vit
