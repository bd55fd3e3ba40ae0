// Claims about loading on the worker thread: the trace arrives complete, the
// same model is reused for a new image, and a user's mistake comes back as text.
#include <catch2/catch.hpp>

#include <thread>

#include "loader.h"

using namespace vit::gui;

static LoadOutcome wait_for(Loader& l) {
    for (int i = 0; i < 2000; ++i) {
        if (auto o = l.poll()) return *o;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    FAIL("the loader did not finish in 10 s");
    return {};
}

TEST_CASE("loading the toy model on the worker gives a trace with every stage") {
    Loader l;
    l.request({"toy-4x4", "", 0}, nullptr, "");
    REQUIRE(l.busy());
    LoadOutcome o = wait_for(l);
    REQUIRE(o.error.empty());
    REQUIRE(o.loaded);
    REQUIRE(o.loaded->trace->size() == vit::stage_ids(1, true).size());
    REQUIRE(o.loaded->picture.width == 4);
    REQUIRE_FALSE(l.busy());
}

TEST_CASE("choosing another image keeps the model already loaded") {
    Loaded first = load_and_run({"toy-4x4", "", 0}, nullptr, "");
    Loaded again = load_and_run({"toy-4x4", "", 0}, first.model, "toy-4x4");
    REQUIRE(again.model.get() == first.model.get());
}

TEST_CASE("a missing image comes back as an error message naming the file, and the loader stays usable") {
    Loader l;
    l.request({"toy-4x4", "/nonexistent/cat.png", 0}, nullptr, "");
    LoadOutcome o = wait_for(l);
    REQUIRE_FALSE(o.loaded);
    REQUIRE_THAT(o.error, Catch::Contains("cat.png"));
    l.request({"toy-4x4", "", 0}, nullptr, "");
    REQUIRE(wait_for(l).loaded);
}

TEST_CASE("an RGB image given to a one-channel model is turned grey, and back") {
    vit::Image rgb;
    rgb.channels = 3;
    rgb.height = rgb.width = 1;
    rgb.data = {0.3f, 0.6f, 0.9f};
    vit::Image grey = adapt_channels(rgb, 1);
    REQUIRE(grey.channels == 1);
    REQUIRE(grey.data[0] == Approx(0.6f));
    vit::Image back = adapt_channels(grey, 3);
    REQUIRE(back.channels == 3);
    REQUIRE(back.data[2] == Approx(0.6f));
}

TEST_CASE("an image size too large for memory comes back with the largest size that fits") {
    Loader l;
    l.request({"toy-4x4", "", 100000}, nullptr, "");
    LoadOutcome o = wait_for(l);
    REQUIRE_FALSE(o.loaded);
    CHECK_THAT(o.error, Catch::Matchers::Contains("over the limit of 8192 pixels a side"));
    REQUIRE(o.fitting_image_size > 0);
    CHECK(o.fitting_image_size % 2 == 0);  // a whole number of the toy's 2×2 patches
}
