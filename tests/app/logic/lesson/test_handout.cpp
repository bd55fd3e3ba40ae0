// The lesson hand-out (app/gui/logic/lesson/handout.h): base64 and escaping, one
// self-contained page with every step's number, title, picture, narration,
// answer, question, formula and PyTorch line, the stage chosen for each screen,
// the option's checks, and (hidden, [.handout]) the check run_app_check.cmake
// makes on the DOM headless Chromium dumps of an exported page.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <stb/stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "hang_guard.h"
#include "base/error.h"
#include "base/file_io.h"
#include "logic/lesson/handout.h"
#include "logic/lesson/handout_figure.h"
#include "logic/lesson/lesson.h"
#include "logic/state/export.h"
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
    HandoutStep one{"Cut <into> patches",
                    "Patch 0's pixels & more.",
                    "How many?",
                    "The model's answer: 9 (92.9%)",
                    "Cut into patches and flatten",
                    "X[n] = flatten(x)",
                    "patches = x.unfold(1, P, P)",
                    bytes("PNG1"),
                    "Four."};
    HandoutStep two{"Where does CLS look?", "Heads differ.", "", "", "", "", "", bytes("PNG22"), ""};
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
    for (const char* outside : {"http:", "https:", "<link", "src=\"/", "@import", "url("})
        CHECK(html.find(outside) == std::string::npos);
    CHECK_THAT(html, Contains("data-natural-width"));
}

TEST_CASE("a hand-out prints on light pages and gathers the questions' answers in a key after the last step") {
    HandoutStep one{"Cut",      "Four patches.",  "How many numbers per patch?", "", "", "", "",
                    bytes("A"), "Four & no more."};
    HandoutStep two{"Look", "Heads differ.", "", "", "", "", "", bytes("B"), ""};
    HandoutStep three{"Mask", "Hide the loop.", "Which patch?", "", "", "", "", bytes("C"), ""};
    const std::string html = handout_html("L", {one, two, three});
    CHECK_THAT(html, Contains("body { margin: 0; background: #ffffff; color: #111111;") && Contains("@media print"));
    const size_t key = html.find("<section id=\"answer-key\">");
    REQUIRE(key != std::string::npos);
    CHECK(key > html.find("<section id=\"step-3\">"));
    const std::string tail = html.substr(key);
    CHECK_THAT(tail, Contains("<li value=\"1\"><p class=\"key-question\">How many numbers per patch?</p><p "
                              "class=\"key-answer\">Four &amp; no more.</p></li>"));
    CHECK_THAT(
        tail,
        Contains(std::string("<li value=\"3\"><p class=\"key-question\">Which patch?</p><p class=\"key-answer\">") +
                 kUnwrittenAnswer));
    CHECK(count_of(tail, "<li ") == 2);                 // step 2 asks nothing
    CHECK(count_of(html, "Four &amp; no more.") == 1);  // the answer waits in the key, not under its question
    CHECK(handout_html("L", {two}).find("<section id=\"answer-key\">") == std::string::npos);
    CHECK(handout_figure_budget(12) * 12 * 4 / 3 < kHandoutMaxBytes);
}

TEST_CASE("a lesson step's written answer needs its question and survives a save") {
    const std::string step =
        R"({"title": "T", "model": "toy-4x4", "steps": [{"title": "S", "question": "Q?", "answer": "A."}]})";
    CHECK(parse_lesson(step, "l.json").steps[0].answer == "A.");
    CHECK_THROWS_WITH(
        parse_lesson(R"({"title": "T", "model": "toy-4x4", "steps": [{"title": "S", "answer": "A."}]})", "l.json"),
        Contains("'answer' answers the step's 'question': give one"));
    const Lesson lesson = parse_lesson(step, "l.json");
    CHECK(parse_lesson(lesson_json(lesson), "l.json") == lesson);
}

namespace {

RgbaImage filled(int w, int h, uint8_t grey) {
    RgbaImage img;
    img.width = w, img.height = h;
    img.pixels.assign(size_t(w) * h * 4, grey);
    for (size_t i = 3; i < img.pixels.size(); i += 4) img.pixels[i] = 255;
    return img;
}

const uint8_t* pixel(const RgbaImage& img, int x, int y) { return &img.pixels[(size_t(y) * img.width + x) * 4]; }

}  // namespace

TEST_CASE("a hand-out figure is its pictures with the text beside them, cut out of the view") {
    FigureDrawing d;
    d.regions = {{10, 10, 500, 400}};
    d.pictures = {
        {100, 100, 200, 200}, {220, 100, 300, 180}, {600, 50, 700, 90}};  // the last one lies in another panel
    d.margin = 20;
    d.text = {{40, 140, 60, 160}, {310, 170, 380, 185}, {100, 20, 180, 40}, {520, 140, 560, 160}};
    // The axis label left and the tick label right are at the pictures' heights: kept whole. The line
    // far above and the text outside the view are not.
    const PixelRect r = figure_rect(d);
    CHECK(r.x0 == 40);
    CHECK(r.x1 == 380);
    CHECK(r.y0 == 80);
    CHECK(r.y1 == 220);
    d.pictures = {{600, 50, 700, 90}};
    const PixelRect whole = figure_rect(d);  // no picture in the view: the whole view
    CHECK((whole.x0 == 10 && whole.y0 == 10 && whole.x1 == 500 && whole.y1 == 400));
}

TEST_CASE(
    "around its pictures a figure turns light: the app's dark background white, its white text black, colours kept") {
    RgbaImage img = filled(4, 2, 15);  // the app's background
    uint8_t* text = &img.pixels[(0 * 4 + 1) * 4];
    text[0] = text[1] = text[2] = 255;  // white text
    uint8_t* yellow = &img.pixels[(0 * 4 + 2) * 4];
    yellow[0] = 255, yellow[1] = 200, yellow[2] = 0;  // a highlight's yellow
    RgbaImage kept = img;
    lighten_around(img, {{0, 1, 4, 2}}, {{0, 0, 3, 2}});  // row 1 is a picture; column 3 lies outside the view
    CHECK((pixel(img, 0, 0)[0] == 255 && pixel(img, 0, 0)[2] == 255));
    CHECK((pixel(img, 1, 0)[0] == 0 && pixel(img, 1, 0)[1] == 0));
    CHECK((pixel(img, 2, 0)[0] == 255 && pixel(img, 2, 0)[1] >= 200 && pixel(img, 2, 0)[2] <= 10));
    CHECK(pixel(img, 3, 0)[0] == 255);                                                       // another panel: paper
    CHECK(std::equal(img.pixels.begin() + 16, img.pixels.end(), kept.pixels.begin() + 16));  // the picture as drawn
}

TEST_CASE("a figure's PNG shrinks only while it is over its budget, and crops stay inside the image") {
    RgbaImage noise = filled(300, 200, 0);
    uint32_t seed = 1;
    for (size_t i = 0; i < noise.pixels.size(); ++i)
        if (i % 4 != 3) noise.pixels[i] = uint8_t((seed = seed * 1664525u + 1013904223u) >> 24);
    const std::vector<uint8_t> full = figure_png(noise, size_t(1) << 30);
    const std::vector<uint8_t> small = figure_png(noise, full.size() / 3);
    CHECK(small.size() <= full.size() / 3);
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load_from_memory(full.data(), int(full.size()), &w, &h, &n, 3);
    REQUIRE(px);
    stbi_image_free(px);
    CHECK((w == 300 && h == 200));
    const RgbaImage half = downscale(filled(10, 6, 80), 0.5f);
    CHECK((half.width == 5 && half.height == 3 && pixel(half, 4, 2)[0] == 80));
    const RgbaImage c = crop(noise, {-5, 190, 20, 400});
    CHECK((c.width == 20 && c.height == 10));
    CHECK(std::equal(c.pixels.begin(), c.pixels.begin() + 80, noise.pixels.begin() + size_t(190) * 300 * 4));
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

TEST_CASE(
    "the --handout option needs a lesson, puts its pictures beside the page, and a path it cannot write is one "
    "message") {
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

TEST_CASE("a hand-out is never written over a file the same run reads: the lesson or an image") {
    const fs::path folder = fs::temp_directory_path() / "vitviz-test-handout-inputs";
    fs::create_directories(folder);
    const std::string lesson = (folder / "lesson.json").string();
    vit::write_whole_file(lesson, "{}");
    const Options o = parse_options({"--lesson", lesson, "--handout", (folder / "." / "lesson.json").string()});
    CHECK_THROWS_WITH(check_handout_path(o.handout, o.inputs()),
                      Contains("cannot write the hand-out over '" + lesson + "', which this run reads"));
    CHECK_NOTHROW(check_handout_path((folder / "out.html").string(), o.inputs()));
    CHECK(vit::read_file(lesson, 100).size() == 2);  // the lesson is as it was
    fs::remove_all(folder);
}

TEST_CASE("a FIFO or an empty path for the hand-out is refused at once, before the lesson plays") {
    CHECK_THROWS_WITH(parse_options({"--lesson", "l.json", "--handout", ""}),
                      Contains("--handout: expected a path, got an empty one"));
    const fs::path fifo = fs::temp_directory_path() / "vitviz-test-handout-fifo.html";
    fs::remove(fifo);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    {
        HangGuard guard;
        CHECK_THROWS_WITH(check_handout_path(fifo.string()),
                          fifo.string() + ": cannot write the hand-out (it is a FIFO)");
        CHECK_THROWS_WITH(write_handout(fifo.string(), "<html>"),
                          "cannot write the hand-out '" + fifo.string() + "': not a regular file (a FIFO)");
        CHECK_THROWS_WITH(save_lesson(Lesson{}, fifo.string()),
                          "cannot write the lesson '" + fifo.string() + "': not a regular file (a FIFO)");
    }
    fs::remove(fifo);
}

namespace {

std::string read_text_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// The serialised DOM writes text with & < > escaped, quotes as they are.
std::string as_dom_text(const std::string& s) {
    std::string out;
    for (char c : s) out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
    return out;
}

// The mean brightness (0…255) of the top pixel row of a PNG file: a figure starts on its paper, above its pictures'
// titles.
double top_row_brightness(const std::string& png_path) {
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(png_path.c_str(), &w, &h, &n, 3);
    REQUIRE(px);
    double sum = 0;
    for (int x = 0; x < w; ++x) sum += (px[x * 3] + px[x * 3 + 1] + px[x * 3 + 2]) / 3.0;
    stbi_image_free(px);
    return sum / std::max(w, 1);
}

// The parts of a lesson text around its live values ("It answers {answer} with {p}." gives "It answers ",
// " with ", "."), as the page writes them; the parts of 15 characters or more, which a page holds by chance
// no more than once.
std::vector<std::string> fixed_parts(const std::string& text) {
    std::vector<std::string> parts;
    size_t from = 0;
    while (from <= text.size()) {
        const size_t open = text.find('{', from);
        const std::string part = text.substr(from, open == std::string::npos ? std::string::npos : open - from);
        if (part.size() >= 15) parts.push_back(as_dom_text(part));
        if (open == std::string::npos) break;
        const size_t close = text.find('}', open);
        from = close == std::string::npos ? text.size() + 1 : close + 1;
    }
    return parts;
}

// The number of live values of `text` whose page text (found in `section` after the fixed part before
// them, of 15 characters or more) reads "…": a value the hand-out did not wait for.
int unfilled_values(const std::string& text, const std::string& section) {
    int unfilled = 0;
    for (size_t from = 0, open; (open = text.find('{', from)) != std::string::npos; from = text.find('}', open) + 1) {
        const std::string before = as_dom_text(text.substr(from, open - from));
        const size_t at = before.size() >= 15 ? section.find(before) : std::string::npos;
        if (at != std::string::npos && section.compare(at + before.size(), 3, "\xE2\x80\xA6") == 0) ++unfilled;
        if (text.find('}', open) == std::string::npos) break;
    }
    return unfilled;
}

}  // namespace

// What headless Chromium made of an exported hand-out (run_app_check.cmake): at most 2 MB, a light
// page (the body's rendered background) whose figures start on light paper, every step's figure
// decoded (the page's script wrote its width), its number, title and narration (once in the whole
// page; the parts around its live values, each value filled in) in the document, and after the last step an answer key
// holding each question and its answer.
TEST_CASE("an exported hand-out renders every step's picture and text in headless Chromium", "[.handout]") {
    const char* lesson_path = std::getenv("VITVIZ_LESSON");
    const char* dom_path = std::getenv("VITVIZ_HANDOUT_DOM");
    const char* page_path = std::getenv("VITVIZ_HANDOUT_PAGE");
    REQUIRE(lesson_path);
    REQUIRE(dom_path);
    REQUIRE(page_path);
    const Lesson lesson = load_lesson(lesson_path);
    const std::string dom = read_text_file(dom_path);
    REQUIRE_FALSE(dom.empty());
    CHECK(fs::file_size(page_path) <= kHandoutMaxBytes);
    int r = 0, g = 0, b = 0;
    const size_t bg_at = dom.find("data-background=\"rgb(");
    REQUIRE(bg_at != std::string::npos);
    REQUIRE(std::sscanf(dom.c_str() + bg_at + 21, "%d, %d, %d", &r, &g, &b) == 3);
    CHECK(std::min({r, g, b}) >= 230);  // a light page, dark text on it
    CHECK_THAT(dom, Contains("<h1>" + as_dom_text(lesson.title) + "</h1>"));
    const std::string steps_dir = handout_picture_dir(page_path);
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& s = lesson.steps[i];
        INFO("step " << i + 1 << ": " << s.title);
        const std::string id = "<section id=\"step-" + std::to_string(i + 1) + "\">";
        const size_t at = dom.find(id);
        REQUIRE(at != std::string::npos);
        const size_t end = dom.find("</section>", at);
        const std::string section = dom.substr(at, end - at);
        for (const std::string& part : fixed_parts(s.title)) CHECK_THAT(section, Contains(part));
        for (const std::string& part : fixed_parts(s.narration)) {  // the narration, once in the whole page
            CHECK_THAT(section, Contains(part));
            CHECK(count_of(dom, part) == 1);
        }
        for (const std::string& part : fixed_parts(s.question)) CHECK_THAT(section, Contains(part));
        for (const std::string* text : {&s.title, &s.narration, &s.question})
            CHECK(unfilled_values(*text, section) == 0);
        const size_t width_at = section.find("data-natural-width=\"");
        REQUIRE(width_at != std::string::npos);
        CHECK(std::atoi(section.c_str() + width_at + 20) >= 300);  // the figure decoded, big enough to read
        char name[32];
        std::snprintf(name, sizeof name, "%02zu-step.png", i);
        CHECK(top_row_brightness((fs::path(steps_dir) / name).string()) >= 200.0);
    }
    CHECK(count_of(dom, "<section id=\"step-") == lesson.steps.size());
    const size_t key_at = dom.find("<section id=\"answer-key\">");
    REQUIRE(key_at != std::string::npos);
    CHECK(key_at > dom.rfind("<section id=\"step-"));
    const std::string key = dom.substr(key_at);
    for (const LessonStep& s : lesson.steps) {
        if (s.question.empty()) continue;
        INFO("question: " << s.question);
        for (const std::string& part : fixed_parts(s.question)) CHECK_THAT(key, Contains(part));
        for (const std::string& part : fixed_parts(s.answer.empty() ? kUnwrittenAnswer : s.answer)) {
            CHECK_THAT(key, Contains(part));
            CHECK(count_of(dom, part) == 1);  // in the key, not under its question
        }
    }
}
