// Wrapping between words (app/gui/logic/describe/drawn_text.h): a number keeps its
// decimal point and its digits on one line, lines stay within the width they are
// given, a word too wide for any line keeps a line of its own, the text's own line
// breaks are kept. Measured here in characters, one unit each.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "logic/describe/drawn_text.h"

using namespace vit::gui;

static float chars(const std::string& line) { return static_cast<float>(line.size()); }

TEST_CASE("wrapping between words never splits a number at its decimal point") {
    // Wrapping that may break after punctuation could end the first line with "at 63."
    const std::string text = "The model answers 1, at 63.3% (was 92.9%).";
    const std::string wrapped = word_wrapped(text, 25.f, chars);
    CHECK(wrapped == "The model answers 1, at\n63.3% (was 92.9%).");
    std::istringstream lines(wrapped);
    for (std::string line; std::getline(lines, line);) CHECK(line.size() <= 25);
}

TEST_CASE("wrapping keeps a too-wide word on its own line and the text's own line breaks") {
    CHECK(word_wrapped("see /a/very/long/path/to/a/file.json now", 10.f, chars) == "see\n/a/very/long/path/to/a/file.json\nnow");
    CHECK(word_wrapped("one two\nthree four", 100.f, chars) == "one two\nthree four");
    CHECK(word_wrapped("a  b", 100.f, chars) == "a b");
    CHECK(word_wrapped("", 10.f, chars).empty());
}
