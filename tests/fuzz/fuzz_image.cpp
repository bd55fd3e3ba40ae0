// libFuzzer target: the image decoder the loaders use (decode_image: our size
// limits and checks in front of libjpeg-turbo for JPEG and stb_image for the
// rest, then the float planes), for a 3-channel or a 1-channel model as the
// first byte says. Errors must be vit::Error. Debian's libjpeg-turbo is linked
// as it ships (not instrumented); stb_image is compiled in with the sanitizers.
#include <cstddef>
#include <cstdint>

#include "base/error.h"
#include "formats/image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const int channels = data[0] & 1 ? 1 : 3;
    try {
        // 1 megapixel at most: a 38-byte GIF may claim 49 (under the loaders' limit of 64), and decoding
        // that many under the sanitizers takes seconds; smaller images take the same paths.
        const vit::Image image = vit::decode_image(data + 1, size - 1, "fuzz.png", channels, 1000000);
        const size_t expected = static_cast<size_t>(image.channels) * image.height * image.width;
        if (image.channels != channels || image.height < 1 || image.width < 1 || image.data.size() != expected)
            __builtin_trap();
    } catch (const vit::Error&) {}
    return 0;
}
