// Debian's stb_image (the header the core includes, the code libstb.so holds),
// compiled with the fuzzer's coverage and sanitizers for fuzz_image. Its
// definitions take the place of libstb.so's in that one binary.
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
