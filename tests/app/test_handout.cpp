// The lesson hand-out (app/gui/logic/lesson/handout.h): base64 and escaping, one
// self-contained page with every step's number, title, picture, narration,
// answer, question, formula and PyTorch line, the stage chosen for each screen,
// the option's checks, and (hidden, [.handout]) the check run_app_check.cmake
// makes on the DOM headless Chromium dumps of an exported page.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../hang_guard.h"
#include "base/error.h"
#include "logic/lesson/handout.h"
#include "logic/lesson/lesson.h"
#include "logic/state/options.h"

using namespace vit::gui;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> bytes(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

size_t count_of(const std::string& text, const std::string& needle) {
    size_t count = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
    return count;
}

}  // namespace

TEST_CASE("base64 and HTML escaping") {
    CHECK(base64(bytes("")) == "");
    CHECK(base64(bytes("f")) == "Zg==");
    CHECK(base64(bytes("fo")) == "Zm8=");
    CHECK(base64(bytes("foo")) == "Zm9v");
    CHECK(base64(bytes("foobar")) == "Zm9vYmFy");
    CHECK(base64({0xff, 0x00, 0x80}) == "/wCA");
    CHECK(html_escape("a < b & c > \"d\" 'e'") == "a &lt; b &amp; c &gt; &quot;d&quot; &#39;e&#39;");
}

TEST_CASE("a hand-out is one offline page: each step's number, title, picture and text, escaped") {
    HandoutStep one{"Cut <into> patches", "Patch 0's pixels & more.", "How many?", "The model's answer: 9 (92.9%)",
                    "Cut into patches and flatten", "X[n] = flatten(x)", "patches = x.unfold(1, P, P)", bytes("PNG1")};
    HandoutStep two{"Where does CLS look?", "Heads differ.", "", "", "", "", "", bytes("PNG22")};
    const std::string html = handout_html("Pixels & tokens", {one, two});
    CHECK_THAT(html, Contains("<title>Pixels &amp; tokens</title>") && Contains("<h1>Pixels &amp; tokens</h1>"));
    CHECK_THAT(html, Contains("<span class=\"number\">1</span>Cut &lt;into&gt; patches</h2>"));
    CHECK_THAT(html, Contains("<span class=\"number\">2</span>Where does CLS look?</h2>"));
    CHECK_THAT(html, Contains("src=\"data:image/png;base64," + base64(bytes("PNG1")) + "\""));
    CHECK_THAT(html, Contains("src=\"data:image/png;base64," + base64(bytes("PNG22")) + "\""));
    CHECK_THAT(html, Contains("Patch 0&#39;s pixels &amp; more.") && Contains("<strong>Question:</strong> How many?"));
    CHECK_THAT(html, Contains("The model&#39;s answer: 9 (92.9%)"));
    CHECK_THAT(html, Contains("<pre class=\"formula\">X[n] = flatten(x)</pre>") &&
                         Contains("<pre class=\"pytorch\">patches = x.unfold(1, P, P)</pre>"));
    CHECK(count_of(html, "<div class=\"stage\">") == 1);  // step 2 shows no one stage and asks nothing
    CHECK(count_of(html, "class=\"question\"") == 1);
    // Nothing from outside: no links, no external scripts, styles or fonts.
    for (const char* outside : {"http:", "https:", "<link", "src=\"/", "@import", "url("}) CHECK(html.find(outside) == std::string::npos);
    CHECK_THAT(html, Contains("data-natural-width"));
}

TEST_CASE("a step's formula comes from the stage it shows, or block layer's attention on the attention screens") {
    const Pipeline p = make_pipeline(vit::stage_list(4, true), 17, 4);
    AppState s;
    s.stage = p.index_of("block1.fc1");
    CHECK(handout_stage(s, p) == std::optional<vit::StageRef>(vit::StageRef{vit::StageKind::Fc1, 1}));
    s.screen = Screen::Attention;
    s.layer = 3;
    CHECK(handout_stage(s, p) == std::optional<vit::StageRef>(vit::StageRef{vit::StageKind::Attn, 3}));
    s.screen = Screen::ModelView;
    CHECK(handout_stage(s, p) == std::optional<vit::StageRef>(vit::StageRef{vit::StageKind::Attn, 3}));
    s.screen = Screen::Why;
    CHECK_FALSE(handout_stage(s, p));
    s.screen = Screen::Overview;
    CHECK_FALSE(handout_stage(s, p));
}

TEST_CASE("the --handout option needs a lesson, puts its pictures beside the page, and a path it cannot write is one message") {
    CHECK_THROWS_WITH(parse_options({"--handout", "out.html"}), Contains("--handout needs --lesson FILE"));
    const Options o = parse_options({"--lesson", "l.json", "--handout", "class/out.html"});
    CHECK(o.tour_dir == (fs::path("class") / "out-steps").string());
    CHECK(parse_options({"--lesson", "l.json", "--handout", "out.html", "--tour", "shots"}).tour_dir == "shots");
    CHECK_THROWS_WITH(check_handout_path("/nonexistent/folder/out.html"),
                      Contains("/nonexistent/folder/out.html: cannot write the hand-out (No such file or directory)"));
    const fs::path folder = fs::temp_directory_path();
    CHECK_THROWS_WITH(check_handout_path(folder.string()), Contains("cannot write the hand-out (it is a folder)"));
    const fs::path fine = folder / "vitviz-test-handout.html";
    fs::remove(fine);
    CHECK_NOTHROW(check_handout_path(fine.string()));
    CHECK_FALSE(fs::exists(fine));  // the check leaves nothing behind
    CHECK_THROWS_WITH(write_handout("/nonexistent/folder/out.html", "<html>"), Contains("cannot write the hand-out"));
}

TEST_CASE("a FIFO or an empty path for the hand-out is refused at once, before the lesson plays") {
    CHECK_THROWS_WITH(parse_options({"--lesson", "l.json", "--handout", ""}),
                      Contains("--handout: expected a path, got an empty one"));
    const fs::path fifo = fs::temp_directory_path() / "vitviz-test-handout-fifo.html";
    fs::remove(fifo);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    {
        HangGuard guard;
        CHECK_THROWS_WITH(check_handout_path(fifo.string()), fifo.string() + ": cannot write the hand-out (it is a FIFO)");
        CHECK_THROWS_WITH(write_handout(fifo.string(), "<html>"),
                          "cannot write the hand-out '" + fifo.string() + "': not a regular file (a FIFO)");
        CHECK_THROWS_WITH(save_lesson(Lesson{}, fifo.string()),
                          "cannot write the lesson '" + fifo.string() + "': not a regular file (a FIFO)");
    }
    fs::remove(fifo);
}

// What headless Chromium made of an exported hand-out (run_app_check.cmake): every step's picture decoded
// (the page's script wrote its width) and its number, title and narration are in the document.
TEST_CASE("an exported hand-out renders every step's picture and text in headless Chromium", "[.handout]") {
    const char* lesson_path = std::getenv("VITVIZ_LESSON");
    const char* dom_path = std::getenv("VITVIZ_HANDOUT_DOM");
    REQUIRE(lesson_path);
    REQUIRE(dom_path);
    const Lesson lesson = load_lesson(lesson_path);
    std::ifstream in(dom_path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string dom = buffer.str();
    REQUIRE_FALSE(dom.empty());
    // The serialised DOM writes text with & < > escaped, quotes as they are.
    auto as_text = [](const std::string& s) {
        std::string out;
        for (char c : s) out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
        return out;
    };
    CHECK_THAT(dom, Contains("<h1>" + as_text(lesson.title) + "</h1>"));
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& s = lesson.steps[i];
        INFO("step " << i + 1 << ": " << s.title);
        const std::string id = "<section id=\"step-" + std::to_string(i + 1) + "\">";
        const size_t at = dom.find(id);
        REQUIRE(at != std::string::npos);
        const size_t end = dom.find("</section>", at);
        const std::string section = dom.substr(at, end - at);
        CHECK_THAT(section, Contains(as_text(s.title) + "</h2>"));
        CHECK_THAT(section, Contains(as_text(s.narration)));
        if (!s.question.empty()) CHECK_THAT(section, Contains(as_text(s.question)));
        const size_t width_at = section.find("data-natural-width=\"");
        REQUIRE(width_at != std::string::npos);
        const int width = std::atoi(section.c_str() + width_at + 20);
        CHECK(width >= 800);  // the screenshot decoded at its full width
    }
    CHECK(count_of(dom, "<section id=\"step-") == lesson.steps.size());
}
