// Claims about exports: a stage's tensor as a NumPy .npy file and the view as
// PNG, under names that never overwrite an earlier export.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "base/error.h"
#include "logic/state/export.h"
#include "pass/trace.h"

using namespace vit::gui;
namespace fs = std::filesystem;

TEST_CASE("a stage exported as .npy holds float32 C-order data with its shape in the header") {
    fs::path dir = fs::temp_directory_path() / "vitviz_test_export";
    fs::remove_all(dir);
    fs::create_directories(dir);
    vit::Tensor t({2, 3, 4});
    for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = float(i) * 0.5f;
    std::string path = unique_export_path(dir.string(), "block0.q", ".npy");
    REQUIRE(fs::path(path).filename() == "block0.q.npy");
    save_npy(path, t);
    std::ifstream f(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.compare(0, 6, "\x93NUMPY") == 0);
    size_t header_len = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8;
    std::string header = bytes.substr(10, header_len);
    REQUIRE_THAT(header, Catch::Contains("'descr': '<f4'"));
    REQUIRE_THAT(header, Catch::Contains("(2, 3, 4)"));
    REQUIRE((10 + header_len) % 16 == 0);
    REQUIRE(bytes.size() == 10 + header_len + 24 * sizeof(float));
    float last;
    std::memcpy(&last, bytes.data() + bytes.size() - 4, 4);
    REQUIRE(last == 11.5f);
    REQUIRE(fs::path(unique_export_path(dir.string(), "block0.q", ".npy")).filename() == "block0.q-2.npy");
    fs::remove_all(dir);
}

TEST_CASE("a PNG export writes the pixels, an unwritable path is an error naming it") {
    fs::path dir = fs::temp_directory_path() / "vitviz_test_png";
    fs::remove_all(dir);
    fs::create_directories(dir);
    RgbaImage img;
    img.width = 3;
    img.height = 2;
    img.pixels.assign(3 * 2 * 4, 200);
    save_png((dir / "view.png").string(), img);
    REQUIRE(fs::file_size(dir / "view.png") > 20);
    REQUIRE_THROWS_WITH(save_png((dir / "missing" / "view.png").string(), img), Catch::Contains("view.png"));
    REQUIRE_THROWS_WITH(save_png(dir.string(), img),
                        "cannot write the PNG '" + dir.string() + "': not a regular file (a folder)");
    fs::remove_all(dir);
}

TEST_CASE("Ctrl+S names the view after its stage, or after its screen (the Why screen too)") {
    const Pipeline p = make_pipeline(vit::stage_list(2, true), 5, 2);
    AppState s;
    go_to_stage(s, p, p.index_of("block0.q"));
    CHECK(view_export_stem(s, p) == "vitviz-block0.q");
    s.screen = Screen::Why;
    CHECK(view_export_stem(s, p) == "vitviz-why");
    const fs::path dir = fs::temp_directory_path() / "vitviz_test_export_why";
    fs::remove_all(dir);
    fs::create_directories(dir);
    CHECK(fs::path(unique_export_path(dir.string(), view_export_stem(s, p), ".png")).filename() == "vitviz-why.png");
    for (const ScreenInfo& screen : screen_table()) {
        s.screen = screen.value;
        if (screen.value != Screen::Stage) CHECK(view_export_stem(s, p) == std::string("vitviz-") + screen.name);
    }
    CHECK(view_export_stem(AppState{}, Pipeline{}) == "vitviz");
}
