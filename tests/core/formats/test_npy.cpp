// .npy files: what write_npy writes is NumPy's v1.0 format byte for byte and
// reads back; files NumPy wrote (the fixtures) read; malformed files are refused.
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>

#include "base/error.h"
#include "helpers_loaders.h"
#include "formats/npy.h"

using namespace vit_test;
using Catch::Matchers::Contains;

static vit::Tensor counting_tensor(std::vector<int64_t> shape) {
    vit::Tensor t(std::move(shape));
    for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = static_cast<float>(i) * 0.5f - 1.0f;
    return t;
}

TEST_CASE("write_npy writes the bytes numpy.save writes: v1.0 header padded with spaces to 64 bytes, then a newline") {
    TempDir dir;
    vit::write_npy(dir.path("x.npy"), counting_tensor({2, 3}));
    const std::string bytes = read_file_text(dir.path("x.npy"));
    REQUIRE(bytes.size() == 128 + 6 * 4);
    const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    // numpy.save(f, np.zeros((2, 3), np.float32)) writes exactly these 128 bytes before the data.
    const std::string numpy_header = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict + std::string(58, ' ') + "\n";
    CHECK(bytes.substr(0, 128) == numpy_header);
    float first;
    std::memcpy(&first, bytes.data() + 128, 4);
    CHECK(first == -1.0f);
}

TEST_CASE("tensors of rank 0 to 4 survive a write and a read unchanged") {
    TempDir dir;
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{}, {5}, {3, 4}, {2, 3, 4}, {1, 2, 3, 40}, {0, 3}}) {
        const vit::Tensor t = counting_tensor(shape);
        vit::write_npy(dir.path("t.npy"), t);
        const vit::Tensor back = vit::read_npy(dir.path("t.npy"));
        CHECK(back.shape == shape);
        CHECK(back.data == t.data);
        CHECK(read_file_text(dir.path("t.npy")).size() % 64 == (t.data.size() * 4) % 64);
    }
}

TEST_CASE("numpy.load reads what write_npy writes") {
    if (run_command("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0) return;  // no NumPy here
    TempDir dir;
    vit::write_npy(dir.path("x.npy"), counting_tensor({2, 3, 4}));
    const std::string check =
        "/usr/bin/python3 -c \"import numpy as np, sys; a = np.load(sys.argv[1]); "
        "sys.exit(0 if a.shape == (2, 3, 4) and a.dtype == np.float32 and a.flags.c_contiguous "
        "and a[1, 2, 3] == 23 * 0.5 - 1 else 1)\" " +
        dir.path("x.npy");
    CHECK(run_command(check) == 0);
}

TEST_CASE("the fixtures' .npy files written by NumPy read with their shapes") {
    const std::string path = std::string(VITVIZ_FIXTURES) + "/timm_f32/expected/block0.attn.npy";
    if (!std::filesystem::exists(path)) return;
    const vit::Tensor attn = vit::read_npy(path);
    REQUIRE(attn.shape == std::vector<int64_t>{3, 17, 17});
    float row_sum = 0;
    for (int j = 0; j < 17; ++j) row_sum += attn.data[j];
    CHECK(row_sum == Approx(1.0f).epsilon(1e-5));
}

TEST_CASE("malformed .npy files are refused naming the file and the problem") {
    TempDir dir;
    const std::string path = dir.path("bad.npy");
    auto error_of = [&](const std::string& bytes) -> std::string {
        write_file(path, bytes);
        try {
            vit::read_npy(path);
        } catch (const vit::Error& e) {
            return e.what();
        }
        return "no error";
    };
    vit::write_npy(path, counting_tensor({2, 3}));
    const std::string good = read_file_text(path);
    CHECK_THAT(error_of("PK\x03\x04 not numpy"), Contains(path + ": not a .npy file"));
    std::string f8 = good;
    f8.replace(f8.find("<f4"), 3, "<f8");
    CHECK_THAT(error_of(f8), Contains(path) && Contains("'<f4'"));
    std::string fortran = good;
    fortran.replace(fortran.find("False"), 5, "True ");
    CHECK_THAT(error_of(fortran), Contains("fortran_order False"));
    CHECK_THAT(error_of(good.substr(0, good.size() - 4)),
               Contains("shape (2, 3) needs 24 bytes of data but the file holds 20"));
    std::string long_header = good;
    long_header[8] = '\xff', long_header[9] = '\xff';
    CHECK_THAT(error_of(long_header), Contains("header runs past the end of the file"));
    CHECK_THAT(error_of(good.substr(0, 7)), Contains("not a .npy file"));
    std::string huge_dim = good;  // a dimension with more digits than any whole number holds
    huge_dim.replace(huge_dim.find("(2, 3)"), 6, "(99999999999999999999999, 3)");
    CHECK_THAT(error_of(huge_dim), Contains(path) && Contains("shape is larger than the file"));
}
