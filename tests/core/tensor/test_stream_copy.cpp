// copy_past_caches (stream_copy.h): every float copied, nothing outside the
// destination touched, whatever the destination's alignment and the count
// (streamed whole lines, and the stored ends before and after them).
#include <catch2/catch.hpp>

#include <cmath>

#include "tensor/stream_copy.h"
#include "tensor/tensor.h"

TEST_CASE("a copy past the caches writes every float and nothing beside them", "[stream_copy]") {
    vit::FloatStorage from(200), to(240);
    for (size_t i = 0; i < from.size(); ++i) from[i] = static_cast<float>(i) + 0.5f;
    for (int64_t offset = 0; offset <= 16; ++offset) {
        for (int64_t count : {0, 1, 15, 16, 17, 31, 33, 64, 197, 200}) {
            std::fill(to.begin(), to.end(), NAN);
            vit::copy_past_caches(from.data(), to.data() + offset, count);
            INFO("offset " << offset << ", count " << count);
            for (int64_t i = 0; i < static_cast<int64_t>(to.size()); ++i) {
                const bool inside = i >= offset && i < offset + count;
                if (inside) REQUIRE(to[size_t(i)] == from[size_t(i - offset)]);
                else REQUIRE(std::isnan(to[size_t(i)]));
            }
        }
    }
}
