// Image decoding (libjpeg-turbo for JPEG, stb_image for the rest) and timm's
// eval preprocessing in float.
// Decoding mirrors PIL's `Image.open(path).convert('RGB')` (alpha dropped,
// grey replicated) or `.convert('L')` for 1-channel models (ITU-R 601-2 luma,
// kept as a float instead of PIL's rounding to 8 bits). Resizing is PIL's
// antialiased separable resampling, as torch's F.interpolate(antialias=True,
// align_corners=False) computes it in float (PIL's uint8 rounding left out);
// the crop and the resize sizes follow torchvision's CenterCrop and Resize(int).
#include "formats/image.h"

#include <stb/stb_image.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "base/error.h"
#include "base/file_io.h"
#include "formats/jpeg_decode.h"
#include "formats/pixel_data_size.h"
#include "formats/png_chunks.h"

namespace vit {

namespace {

// PIL's 'L': ITU-R 601-2 luma.
float luma(float r, float g, float b) { return r * 0.299f + g * 0.587f + b * 0.114f; }

std::string stb_reason() {
    const char* reason = stbi_failure_reason();
    return reason ? reason : "unknown reason";
}

// Interleaved pixels with `components` values each (1 grey, 2 grey+alpha,
// 3 RGB, 4 RGBA), scaled by 1/max_value, into `channels` planes.
template <class T>
Image planes_from_pixels(const T* pixels, int width, int height, int components, int channels, float max_value) {
    Image img;
    img.channels = channels;
    img.height = height;
    img.width = width;
    const size_t plane = static_cast<size_t>(width) * static_cast<size_t>(height);
    img.data.resize(plane * static_cast<size_t>(channels));
    const bool grey = components <= 2;
    for (size_t i = 0; i < plane; ++i) {
        const T* p = pixels + i * static_cast<size_t>(components);
        const float r = p[0] / max_value, g = grey ? r : p[1] / max_value, b = grey ? r : p[2] / max_value;
        if (channels == 3) {
            img.data[i] = r;
            img.data[plane + i] = g;
            img.data[2 * plane + i] = b;
        } else {
            img.data[i] = grey ? r : luma(r, g, b);
        }
    }
    return img;
}

using StbPixels = std::unique_ptr<void, void (*)(void*)>;

// The size a PNG's IHDR claims. stb_image's info call refuses headers past
// 2³⁰ samples but then reports only "unknown image type"; reading the PNG
// header here lets the message say what the file claims.
bool png_claimed_size(const uint8_t* bytes, size_t size, int64_t* width, int64_t* height) {
    static const uint8_t signature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    if (size < 24 || std::memcmp(bytes, signature, sizeof signature) != 0) return false;
    const auto be32 = [&](size_t at) {
        return (int64_t{bytes[at]} << 24) | (int64_t{bytes[at + 1]} << 16) | (int64_t{bytes[at + 2]} << 8) |
               bytes[at + 3];
    };
    *width = be32(16);
    *height = be32(20);
    return true;
}

// stb_image also reads PSD, Softimage PIC, PNM and Radiance HDR; the core
// takes the five formats above only and refuses these by their signature, so
// hostile files reach fewer of stb_image's decoders (its PNM header parser
// overflows an int on long numbers, for one). Returns the format's name.
const char* unsupported_format(const uint8_t* bytes, size_t size) {
    static const std::pair<std::string_view, const char*> signatures[] = {
        {"8BPS", "PSD"}, {"\x53\x80\xF6\x34", "Softimage PIC"}, {"P5", "PNM"},
        {"P6", "PNM"},   {"#?RADIANCE\n", "Radiance HDR"},      {"#?RGBE\n", "Radiance HDR"}};
    const std::string_view head(reinterpret_cast<const char*>(bytes), size);
    for (const auto& [signature, format] : signatures)
        if (head.substr(0, signature.size()) == signature) return format;
    return nullptr;
}

double bicubic_filter(double x) {  // PIL's, a = -0.5
    constexpr double a = -0.5;
    x = std::fabs(x);
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
    if (x < 2.0) return (((x - 5.0) * x + 8.0) * x - 4.0) * a;
    return 0.0;
}

double triangle_filter(double x) {  // PIL's bilinear
    x = std::fabs(x);
    return x < 1.0 ? 1.0 - x : 0.0;
}

// The taps of one axis: output i reads inputs [first[i], first[i] + count[i])
// with weights[i * taps + k], which sum to 1.
struct AxisWeights {
    int taps = 0;
    std::vector<int> first, count;
    std::vector<float> weights;
};

// PIL's precompute_coeffs (Resample.c), which torch's antialiased
// interpolation reproduces: the filter is widened by the downscale factor.
AxisWeights axis_weights(int in_size, int out_size, const std::string& interpolation) {
    const bool bicubic = interpolation == "bicubic";
    if (!bicubic && interpolation != "bilinear")
        throw Error("interpolation '" + interpolation + "' is not supported (bicubic, bilinear)");
    double (*filter)(double) = bicubic ? bicubic_filter : triangle_filter;
    const double scale = static_cast<double>(in_size) / out_size;
    const double filter_scale = std::max(scale, 1.0);
    const double support = (bicubic ? 2.0 : 1.0) * filter_scale;

    AxisWeights a;
    a.taps = static_cast<int>(std::ceil(support)) * 2 + 1;
    a.first.resize(out_size);
    a.count.resize(out_size);
    a.weights.assign(static_cast<size_t>(out_size) * a.taps, 0.0f);
    std::vector<double> w(a.taps);
    for (int i = 0; i < out_size; ++i) {
        const double center = (i + 0.5) * scale;
        const int lo = std::max(static_cast<int>(center - support + 0.5), 0);
        const int hi = std::min(static_cast<int>(center + support + 0.5), in_size);
        double total = 0.0;
        for (int x = lo; x < hi; ++x) total += w[x - lo] = filter((x - center + 0.5) / filter_scale);
        a.first[i] = lo;
        a.count[i] = hi - lo;
        for (int k = 0; k < hi - lo; ++k)
            a.weights[static_cast<size_t>(i) * a.taps + k] = static_cast<float>(total != 0.0 ? w[k] / total : 0.0);
    }
    return a;
}

// Resamples along x: C×H×W_in → C×H×W_out.
Image resize_width(const Image& img, int out_w, const std::string& interpolation) {
    const AxisWeights a = axis_weights(img.width, out_w, interpolation);
    Image out{img.channels, img.height, out_w, {}};
    out.data.resize(static_cast<size_t>(img.channels) * img.height * out_w);
    for (int row = 0; row < img.channels * img.height; ++row) {
        const float* src = img.data.data() + static_cast<size_t>(row) * img.width;
        float* dst = out.data.data() + static_cast<size_t>(row) * out_w;
        for (int x = 0; x < out_w; ++x) {
            const float* w = a.weights.data() + static_cast<size_t>(x) * a.taps;
            const float* s = src + a.first[x];
            float sum = 0.0f;
            for (int k = 0; k < a.count[x]; ++k) sum += w[k] * s[k];
            dst[x] = sum;
        }
    }
    return out;
}

// Resamples along y: C×H_in×W → C×H_out×W, whole rows at a time.
Image resize_height(const Image& img, int out_h, const std::string& interpolation) {
    const AxisWeights a = axis_weights(img.height, out_h, interpolation);
    const size_t W = static_cast<size_t>(img.width);
    Image out{img.channels, out_h, img.width, {}};
    out.data.assign(static_cast<size_t>(img.channels) * out_h * W, 0.0f);
    for (int c = 0; c < img.channels; ++c) {
        const float* src = img.data.data() + static_cast<size_t>(c) * img.height * W;
        for (int y = 0; y < out_h; ++y) {
            float* dst = out.data.data() + (static_cast<size_t>(c) * out_h + y) * W;
            const float* w = a.weights.data() + static_cast<size_t>(y) * a.taps;
            for (int k = 0; k < a.count[y]; ++k) {
                const float* s = src + static_cast<size_t>(a.first[y] + k) * W;
                for (size_t x = 0; x < W; ++x) dst[x] += w[k] * s[x];
            }
        }
    }
    return out;
}

}  // namespace

Image image_from_rgba(const uint8_t* rgba, int width, int height, const std::string& name, int channels) {
    if (channels != 1 && channels != 3)
        throw Error(name + ": a model with " + std::to_string(channels) + " channels cannot take images (1 or 3)");
    if (width <= 0 || height <= 0 || width > kMaxImagePixels / height)
        throw Error(name + ": " + std::to_string(width) + "×" + std::to_string(height) + " pixels, not between 1 and " +
                    std::to_string(kMaxImagePixels / 1000000) + " megapixels");
    return planes_from_pixels(rgba, width, height, 4, channels, 255.0f);
}

Image decode_image(const uint8_t* bytes, size_t size, const std::string& name, int channels, int64_t max_pixels) {
    if (channels != 1 && channels != 3)
        throw Error(name + ": a model with " + std::to_string(channels) + " channels cannot take images (1 or 3)");
    if (size > kMaxImageFileBytes)
        throw Error(name + ": " + std::to_string(size) + " bytes, over the limit of " +
                    std::to_string(kMaxImageFileBytes >> 20) + " MiB for an image file");
    const int length = static_cast<int>(size);
    int width = 0, height = 0, components = 0;
    const auto refuse_if_too_large = [&](int64_t w, int64_t h) {
        if (w > 0 && h > 0 && w > max_pixels / h)  // w·h > the limit, without overflowing for PNG's 2³²-1 sides
            throw Error(name + ": header claims " + std::to_string(w) + "×" + std::to_string(h) +
                        " pixels, over the limit of " + std::to_string(max_pixels / 1000000) + " megapixels");
    };
    if (int64_t w, h; png_claimed_size(bytes, size, &w, &h)) refuse_if_too_large(w, h);
    if (is_png(bytes, size)) check_png_chunks(bytes, size, name);
    if (const char* format = unsupported_format(bytes, size))
        throw Error(name + ": " + format + " images are not supported (PNG, JPEG, BMP, GIF, TGA)");
    if (is_jpeg(bytes, size)) {
        const JpegPixels jpeg = decode_jpeg(bytes, size, name, max_pixels);
        refuse_if_too_large(jpeg.width, jpeg.height);
        return planes_from_pixels(jpeg.data.data(), jpeg.width, jpeg.height, jpeg.components, channels, 255.0f);
    }
    if (!stbi_info_from_memory(bytes, length, &width, &height, &components))
        throw Error(name + ": not an image (PNG, JPEG, BMP, GIF, TGA): " + stb_reason());
    refuse_if_too_large(width, height);
    if (width < 1 || height < 1)  // stb_image accepts a zero side in BMP headers
        throw Error(name + ": the image has no pixels (" + std::to_string(width) + "×" + std::to_string(height) + ")");
    check_pixel_data_size(bytes, size, width, height, name);
    const bool sixteen_bit = stbi_is_16_bit_from_memory(bytes, length);
    StbPixels pixels(sixteen_bit
                         ? static_cast<void*>(stbi_load_16_from_memory(bytes, length, &width, &height, &components, 0))
                         : static_cast<void*>(stbi_load_from_memory(bytes, length, &width, &height, &components, 0)),
                     stbi_image_free);
    if (!pixels) throw Error(name + ": cannot decode the image (truncated or corrupt): " + stb_reason());
    if (sixteen_bit)
        return planes_from_pixels(static_cast<const uint16_t*>(pixels.get()), width, height, components, channels,
                                  65535.0f);
    return planes_from_pixels(static_cast<const uint8_t*>(pixels.get()), width, height, components, channels, 255.0f);
}

Image load_image(const std::string& path, int channels) {
    const std::vector<uint8_t> bytes = read_file(path, kMaxImageFileBytes);
    return decode_image(bytes.data(), bytes.size(), path, channels);
}

Image with_channels(const Image& img, int channels) {
    if (img.channels == channels) return img;
    if (img.channels != 1 && img.channels != 3)
        throw Error("an image of " + std::to_string(img.channels) + " channels cannot be converted");
    if (channels != 1 && channels != 3)
        throw Error("a model of " + std::to_string(channels) + " channels cannot take an image (1 or 3 only)");
    Image out;
    out.channels = channels;
    out.height = img.height;
    out.width = img.width;
    const size_t plane = static_cast<size_t>(img.height) * static_cast<size_t>(img.width);
    out.data.resize(plane * static_cast<size_t>(channels));
    for (size_t i = 0; i < plane; ++i) {
        if (channels == 1) {
            out.data[i] = luma(img.data[i], img.data[plane + i], img.data[2 * plane + i]);
        } else {
            for (int c = 0; c < 3; ++c) out.data[static_cast<size_t>(c) * plane + i] = img.data[i];
        }
    }
    return out;
}

Image resize(const Image& img, int out_h, int out_w, const std::string& interpolation) {
    assert(out_h > 0 && out_w > 0 && img.height > 0 && img.width > 0);
    // Width first, then height, like PIL and torch; an axis that keeps its size is left alone.
    const Image wide = out_w == img.width ? img : resize_width(img, out_w, interpolation);
    return out_h == img.height ? wide : resize_height(wide, out_h, interpolation);
}

Image center_crop(const Image& img, int out_h, int out_w) {
    assert(out_h <= img.height && out_w <= img.width);
    // torchvision: int(round((h - S) / 2.0)), Python's round: half to even.
    const int top = static_cast<int>(std::nearbyint((img.height - out_h) / 2.0));
    const int left = static_cast<int>(std::nearbyint((img.width - out_w) / 2.0));
    Image out{img.channels, out_h, out_w, {}};
    out.data.resize(static_cast<size_t>(img.channels) * out_h * out_w);
    for (int c = 0; c < img.channels; ++c)
        for (int y = 0; y < out_h; ++y) {
            const float* src = img.data.data() + (static_cast<size_t>(c) * img.height + top + y) * img.width + left;
            std::copy(src, src + out_w, out.data.data() + (static_cast<size_t>(c) * out_h + y) * out_w);
        }
    return out;
}

Tensor preprocess(const Image& img, const Preprocess& pre, int image_size, const std::string& source) {
    const int S = image_size > 0 ? image_size : pre.image_size;
    if (S > kMaxImageSide)
        throw Error("image size " + std::to_string(S) + " is over the limit of " + std::to_string(kMaxImageSide) +
                    " pixels a side");
    const int C = img.channels;
    if (static_cast<size_t>(C) != pre.mean.size())
        throw Error("the image has " + std::to_string(C) + " channels but the model expects " +
                    std::to_string(pre.mean.size()));
    // timm: floor(S / crop_pct); torchvision Resize(int): the other side int(size * long / short).
    const int scale_size = static_cast<int>(std::floor(S / static_cast<double>(pre.crop_pct)));
    int out_h = scale_size, out_w = scale_size;
    if (pre.keep_aspect) {
        const int short_side = std::min(img.height, img.width), long_side = std::max(img.height, img.width);
        const double long_size = static_cast<double>(scale_size) * long_side / short_side;
        if (long_size * scale_size > static_cast<double>(kMaxImagePixels))
            throw Error((source.empty() ? "" : source + ": ") + "an image of " + std::to_string(img.width) + "×" +
                        std::to_string(img.height) + " pixels is too elongated to resize its shorter side to " +
                        std::to_string(scale_size));
        (img.height <= img.width ? out_w : out_h) = static_cast<int>(long_size);
    }
    const Image cropped = center_crop(resize(img, out_h, out_w, pre.interpolation), S, S);
    Tensor input({C, S, S});
    const size_t plane = static_cast<size_t>(S) * S;
    for (int c = 0; c < C; ++c)
        for (size_t i = 0; i < plane; ++i)
            input.data[c * plane + i] = (cropped.data[c * plane + i] - pre.mean[c]) / pre.std[c];
    return input;
}

}  // namespace vit
