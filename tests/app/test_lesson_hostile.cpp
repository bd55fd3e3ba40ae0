// Hostile lesson files (app/gui/logic/lesson/lesson.h): text too long to draw,
// hundreds of thousands of keys, symbolic link loops. Each is one short message
// naming the file, the step and the key; whatever text is drawn is cut to what
// Dear ImGui can draw in one call (logic/describe/drawn_text.h).
#include <catch2/catch.hpp>

#include <ctime>
#include <filesystem>

#include "base/error.h"
#include "logic/describe/drawn_text.h"
#include "logic/lesson/lesson.h"

using namespace vit::gui;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
namespace fs = std::filesystem;

namespace {

std::string error_of(const std::string& text, const std::string& path = "lesson.json") {
    try {
        parse_lesson(text, path);
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "(no error)";
}

bool is_short_line(const std::string& message) {
    return message.size() < 400 && message.find('\n') == std::string::npos;
}

}  // namespace

TEST_CASE("a narration, title or question longer than the caption holds is refused naming the step and the key") {
    const std::string huge(1 << 20, 'x');
    std::string error = error_of(R"({"steps": [{"title": "a"}, {"title": "b", "narration": ")" + huge + "\"}]}");
    CHECK_THAT(error, Contains("lesson.json: step 2: 'narration' is 1048576 bytes long; at most 4000 fit on screen"));
    CHECK(is_short_line(error));
    error = error_of(R"({"steps": [{"title": ")" + std::string(301, 't') + "\"}]}");
    CHECK_THAT(error, Contains("lesson.json: step 1: 'title' is 301 bytes long; at most 300"));
    error = error_of(R"({"steps": [{"title": "a", "question": ")" + huge + "\"}]}");
    CHECK_THAT(error, Contains("lesson.json: step 1: 'question' is 1048576 bytes long"));
    error = error_of(R"({"title": ")" + huge + R"(", "steps": [{"title": "a"}]})");
    CHECK_THAT(error, Contains("lesson.json: 'title' is 1048576 bytes long"));
    CHECK(is_short_line(error_of(R"({"steps": [{"title": "a", "model": ")" + huge + "\"}]}")));
    // An unknown key of a megabyte is quoted shortened.
    CHECK(is_short_line(error_of("{\"" + huge + "\": 1, \"steps\": [{\"title\": \"a\"}]}")));
    // At the bound it loads.
    CHECK(parse_lesson(R"({"steps": [{"title": ")" + std::string(300, 't') + R"(", "narration": ")" +
                           std::string(4000, 'n') + "\"}]}",
                       "lesson.json")
              .steps[0]
              .narration.size() == 4000);
}

TEST_CASE("text drawn in one call is cut to what Dear ImGui can draw, a UTF-8 character never split") {
    CHECK(drawn_text("A short caption.") == "A short caption.");
    const std::string fits(kMaxDrawnBytes, 'x');
    CHECK(drawn_text(fits) == fits);
    std::string euros;
    while (euros.size() < (1u << 20)) euros += "\xE2\x82\xAC";  // €, 3 bytes each
    const std::string cut = drawn_text(euros);
    CHECK(cut.size() <= kMaxDrawnBytes);
    CHECK_THAT(cut, EndsWith("… (cut)"));
    const std::string kept = cut.substr(0, cut.size() - std::string("… (cut)").size());
    CHECK(kept.size() % 3 == 0);
    CHECK(kept == euros.substr(0, kept.size()));
}

TEST_CASE("a lesson of 300,000 sibling objects is refused in linear time") {
    std::string members;
    for (int i = 0; i < 300000; ++i) members += ", \"k" + std::to_string(i) + "\": {}";
    const std::clock_t start = std::clock();  // processor time: a loaded test machine does not count
    const std::string error = error_of(R"({"steps": [{"title": "a"}])" + members + "}");
    CHECK(static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC < 3.0);  // generous for a Debug sanitizer build
    CHECK_THAT(error, Contains("lesson.json: unknown key 'k0'"));
    const std::string deep = std::string(65, '[') + std::string(65, ']');
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "narration": )" + deep + "}]}"),
               Contains("lesson.json: invalid JSON: nested deeper than 64 levels"));
}

TEST_CASE("a symbolic link loop as a lesson's model or image is one message naming the file, the step and the key") {
    const fs::path folder = fs::temp_directory_path() / "vitviz-test-lesson-loop";
    fs::remove_all(folder);
    fs::create_directories(folder);
    fs::create_symlink("loop", folder / "loop");
    const std::string path = (folder / "lesson.json").string();
    const std::string reason = "cannot be looked at: too many levels of symbolic links (looked in " + folder.string() + ")";
    std::string error = error_of(R"({"model": "loop", "steps": [{"title": "a"}]})", path);
    CHECK_THAT(error, Contains(path + ": 'model' \"loop\" " + reason));
    CHECK(is_short_line(error));
    error = error_of(R"({"steps": [{"title": "a"}, {"title": "b", "image": "loop/x.png"}]})", path);
    CHECK_THAT(error, Contains(path + ": step 2: 'image' \"loop/x.png\" " + reason));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "model": "loop"}]})", path), Contains(path + ": step 1: 'model' \"loop\""));
    CHECK_THAT(error_of(R"({"image": "loop", "steps": [{"title": "a"}]})", path), Contains(path + ": 'image' \"loop\" " + reason));
    fs::remove_all(folder);
}
