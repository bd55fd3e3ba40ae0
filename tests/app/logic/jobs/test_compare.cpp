// Claims about the comparison model (app/gui/logic/jobs/compare_pass.h): it runs on
// the worker on the image the loaded model shows, at its own size; a new image reruns
// it (stale until then); a bad path comes back as one message naming the file and
// forgets it; the layers match by relative depth. (The screenshots of
// `vitviz --compare-model … --tour`: tests/app/logic/describe/test_tour_screenshots.cpp, "[.compare_tour]".)
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <thread>

#include "logic/jobs/compare_pass.h"

using namespace vit::gui;

namespace {

// Polls until the comparison's work is done; the last message poll() gave ("" when none).
std::string settle(ComparePass& c) {
    std::string message;
    for (int i = 0; i < 4000; ++i) {
        std::string m = c.poll();
        if (!m.empty()) message = m;
        if (!c.working()) return message;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    FAIL("the comparison pass did not finish in 20 s");
    return message;
}

// What the loaded model shows after the Draw canvas sent `value` everywhere (4×4, grey).
Loaded canvas_shown(float value) {
    Loaded l;
    l.request = LoadRequest{"toy-4x4", "", 0};
    auto pixels = std::make_shared<vit::Image>();
    pixels->channels = 1;
    pixels->height = pixels->width = 4;
    for (int i = 0; i < 16; ++i) pixels->data.push_back(value * (i % 5) / 4.f);
    l.request.pixels = pixels;
    l.picture = *pixels;
    l.image_name = "canvas";
    return l;
}

}  // namespace

TEST_CASE("the comparison model runs on the shown image at its own size, and a new image reruns it") {
    const Loaded shown = load_and_run({"toy-4x4", "", 0}, nullptr, "");
    ComparePass c(vit::gui::threaded_worker());
    c.set_model("digits");
    REQUIRE_FALSE(c.working());  // no image shown yet
    c.follow(shown);
    REQUIRE(c.working());
    REQUIRE(settle(c).empty());
    REQUIRE(c.result());
    REQUIRE_FALSE(c.stale());
    const vit::Tensor first = *c.result()->input;
    CHECK(first.shape == std::vector<int64_t>{1, 28, 28});  // digits' own size, not the toy's 4×4
    c.follow(shown);                                        // the same image: nothing to do
    CHECK_FALSE(c.working());

    c.follow(canvas_shown(1.f));
    REQUIRE(c.stale());  // the old pass stays on screen, marked, until the new one arrives
    REQUIRE(c.result());
    REQUIRE(settle(c).empty());
    REQUIRE_FALSE(c.stale());
    CHECK(c.result()->input->data != first.data);
    CHECK(c.result()->image_name == "canvas");

    const uint64_t generation = c.generation();
    c.set_model("toy-4x4");  // another comparison model: rerun on the same image
    REQUIRE(c.stale());
    settle(c);
    CHECK(c.generation() != generation);
    CHECK(c.result()->model_name == "toy-4x4");

    c.clear();
    CHECK_FALSE(c.active());
    CHECK(c.result() == nullptr);
}

TEST_CASE("a comparison model that cannot be read gives one message naming the file and is forgotten") {
    const Loaded shown = load_and_run({"toy-4x4", "", 0}, nullptr, "");
    ComparePass c(vit::gui::threaded_worker());
    c.follow(shown);
    c.set_model("/nonexistent/compare.safetensors");
    const std::string message = settle(c);
    CHECK_THAT(message, Catch::Contains("comparison model") && Catch::Contains("compare.safetensors"));
    CHECK(message.find('\n') == std::string::npos);
    CHECK_FALSE(c.active());
    CHECK(c.result() == nullptr);
    c.set_model("toy-4x4");  // and the next one works
    CHECK(settle(c).empty());
    CHECK(c.result());
}

TEST_CASE("the comparison's block is the one at the same relative depth") {
    CHECK(comparison_layer(11, 12, 12) == 11);
    CHECK(comparison_layer(11, 12, 6) == 5);  // the last block matches the last
    CHECK(comparison_layer(5, 12, 6) == 2);
    CHECK(comparison_layer(3, 4, 12) == 11);
    CHECK(comparison_layer(0, 4, 12) == 2);
    CHECK(comparison_layer(0, 12, 2) == 0);
    CHECK(comparison_layer(3, 4, 0) == 0);  // no blocks: block 0 (the views say there is none)
}

TEST_CASE("the comparison's passes keep only the stream when the app was asked to") {
    LoadRequest asked{"toy-4x4", "", 0};
    asked.keep_stream = true;
    const Loaded shown = load_and_run(asked, nullptr, "");
    REQUIRE(shown.trace->keep() == vit::TraceKeep::Stream);
    ComparePass c(vit::gui::threaded_worker());
    c.set_model("digits");
    c.follow(shown);
    REQUIRE(settle(c).empty());
    REQUIRE(c.result());
    CHECK(c.result()->trace->keep() == vit::TraceKeep::Stream);
    CHECK(c.result()->trace->tensor({vit::StageKind::Attn, 0}) == nullptr);  // recomputed when shown, not kept
}
