// Images: decoding (libjpeg-turbo: JPEG; stb_image: PNG, BMP, GIF first
// frame, TGA; 8 and 16 bit; grey, grey+alpha, RGB, RGBA, CMYK JPEG) into float
// RGB in [0,1], and timm's eval preprocessing: resize the shorter side to
// image_size / crop_pct (bicubic or bilinear, antialiased like PIL), centre
// crop, normalise by mean/std.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/bounds.h"
#include "model/model.h"
#include "tensor/tensor.h"

namespace vit {

// An image as C×H×W floats in [0,1] (C = 3, or 1 for single-channel models).
struct Image {
    int channels = 0, height = 0, width = 0;
    std::vector<float> data;  // channel-major: data[(c*height + y)*width + x]
};

// Decodes a file; throws vit::Error naming the file when it is missing, not an
// image, truncated, corrupt or too large, or in a format stb_image reads but the
// core does not take (PSD, PIC, PNM, HDR).
Image load_image(const std::string& path, int channels = 3);
// `max_pixels`: the fuzz target lowers the limit to keep each run short.
Image decode_image(const uint8_t* bytes, size_t size, const std::string& name, int channels = 3,
                   int64_t max_pixels = kMaxImagePixels);

// A picture another decoder already decoded (a browser's: the page decodes what
// the student picks with its own decoders) from 8-bit RGBA rows, alpha left out
// as decode_image leaves it; vit::Error naming it when its size is 0 or over
// kMaxImagePixels.
Image image_from_rgba(const uint8_t* rgba, int width, int height, const std::string& name, int channels = 3);

// The same picture with `channels` (1 or 3) channels: grey replicated, or
// RGB turned grey by PIL's 'L' luma as decoding does; vit::Error for others.
Image with_channels(const Image& img, int channels);

// Separable resampling with PIL's antialiased filters (torch's antialias=True):
// "bicubic" (a = -0.5) or "bilinear". Works on any C×H×W float data.
Image resize(const Image& img, int out_h, int out_w, const std::string& interpolation);
Image center_crop(const Image& img, int out_h, int out_w);

// The model input (stage `input`): C×S×S, normalised. `image_size` overrides
// the config's crop size when positive (the model then interpolates its
// positional embedding). `source` (the image's file, when it has one) starts
// the message for an image too elongated to resize.
Tensor preprocess(const Image& img, const Preprocess& pre, int image_size = 0, const std::string& source = "");

}  // namespace vit
