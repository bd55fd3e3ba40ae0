// The lesson hand-out as one HTML page (see handout.h).
#include "logic/lesson/handout.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/error.h"
#include "base/file_io.h"

namespace vit::gui {

namespace fs = std::filesystem;

namespace {

// Light pages for paper: white, dark text, the fonts every system has; each step on one
// page with its figure at most ~60% of it, the answer key on a page of its own.
const char* kStyle = R"(
body { margin: 0; background: #ffffff; color: #111111;
       font: 17px/1.5 Georgia, "DejaVu Serif", "Times New Roman", serif; }
main { max-width: 60rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; }
h1 { font: 700 2.1rem/1.2 "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; margin: 0 0 .3rem; }
.subtitle { color: #444; margin: 0 0 1.5rem; font-family: Arial, "DejaVu Sans", sans-serif; font-size: .95rem; }
section { border-top: 1px solid #bbb; padding: 1.2rem 0; break-inside: avoid; page-break-inside: avoid; }
h2 { font: 700 1.4rem/1.3 "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; margin: 0 0 .7rem; }
h2 .number { color: #8a4f00; margin-right: .5rem; }
img { display: block; margin: 0 auto; width: 100%; height: auto; max-height: 62vh; object-fit: contain; }
.narration { margin: .9rem 0 .4rem; }
.answer { color: #0b4a75; font-family: Arial, "DejaVu Sans", sans-serif; font-size: .95rem; margin: .3rem 0; }
.question { border-left: 4px solid #c07a00; padding: .3rem .8rem; margin: .7rem 0; }
.stage { border: 1px solid #ccc; border-radius: 4px; padding: .5rem .8rem; margin-top: .7rem; font-size: .88rem; }
.stage .name { font-family: Arial, "DejaVu Sans", sans-serif; font-weight: 700; margin-bottom: .2rem; }
.stage pre { margin: .2rem 0; white-space: pre-wrap; font: .9rem/1.4 "DejaVu Sans Mono", Consolas, monospace; }
.formula { color: #5c3700; }
.pytorch { color: #13521f; }
#answer-key { break-before: page; page-break-before: always; }
#answer-key li { margin: 0 0 .8rem; }
#answer-key .key-question { font-weight: 700; margin: 0; }
#answer-key .key-answer { margin: .2rem 0 0; }
@page { margin: 15mm; }
@media print { body { font-size: 11pt; } main { max-width: none; padding: 0; } img { max-height: 150mm; } }
)";

// Marks each picture with the width it decoded to (0: it did not), and the body with the colour
// its background rendered in, for checks without a screen.
const char* kScript =
    "window.addEventListener('load', function () {"
    " document.body.setAttribute('data-background', getComputedStyle(document.body).backgroundColor);"
    " document.querySelectorAll('img').forEach(function (img) {"
    " img.setAttribute('data-natural-width', String(img.naturalWidth)); }); });";

std::string paragraph(const char* cls, const std::string& text, const std::string& prefix = "") {
    if (text.empty()) return "";
    return "<p class=\"" + std::string(cls) + "\">" + prefix + html_escape(text) + "</p>\n";
}

std::string step_html(int number, const HandoutStep& s) {
    std::string h = "<section id=\"step-" + std::to_string(number) + "\">\n";
    h += "<h2><span class=\"number\">" + std::to_string(number) + "</span>" + html_escape(s.title) + "</h2>\n";
    h += "<img alt=\"figure of step " + std::to_string(number) + "\" src=\"data:image/png;base64," + base64(s.png) +
         "\">\n";
    h += paragraph("narration", s.narration);
    h += paragraph("answer", s.answer);
    h += paragraph("question", s.question, "<strong>Question:</strong> ");
    if (!s.formula.empty() || !s.pytorch.empty()) {
        h += "<div class=\"stage\"><div class=\"name\">" + html_escape(s.stage_title) + "</div>\n";
        if (!s.formula.empty()) h += "<pre class=\"formula\">" + html_escape(s.formula) + "</pre>\n";
        if (!s.pytorch.empty()) h += "<pre class=\"pytorch\">" + html_escape(s.pytorch) + "</pre>\n";
        h += "</div>\n";
    }
    return h + "</section>\n";
}

// Each question with its step's number and its written answer, after the last step.
std::string answer_key_html(const std::vector<HandoutStep>& steps) {
    std::string h;
    for (size_t i = 0; i < steps.size(); ++i) {
        const HandoutStep& s = steps[i];
        if (s.question.empty()) continue;
        h +=
            "<li value=\"" + std::to_string(i + 1) + "\"><p class=\"key-question\">" + html_escape(s.question) + "</p>";
        h += "<p class=\"key-answer\">" + html_escape(s.key.empty() ? kUnwrittenAnswer : s.key) + "</p></li>\n";
    }
    if (h.empty()) return h;
    return "<section id=\"answer-key\">\n<h2>Answer key</h2>\n<ol>\n" + h + "</ol>\n</section>\n";
}

}  // namespace

const char* const kUnwrittenAnswer = "The lesson writes no answer to this one: an open question for the class.";

size_t handout_figure_budget(size_t steps) {
    const size_t text = 100'000;  // the style, the narrations, the formulas: a few kB a step
    return (kHandoutMaxBytes - text) * 3 / 4 / std::max<size_t>(steps, 1);
}

std::optional<StageRef> handout_stage(const AppState& s, const Pipeline& p) {
    switch (screen_info(s.screen).handout) {
        case HandoutFigure::StageShown:
            if (s.stage >= 0 && s.stage < p.size()) return p.stages[static_cast<size_t>(s.stage)];
            return std::nullopt;
        case HandoutFigure::LayerAttention:
            if (p.depth > 0) return StageRef{StageKind::Attn, s.layer};
            return std::nullopt;
        case HandoutFigure::None: return std::nullopt;
    }
    return std::nullopt;
}

std::string base64(const std::vector<uint8_t>& bytes) {
    static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t n = std::min<size_t>(3, bytes.size() - i);
        uint32_t v = uint32_t(bytes[i]) << 16;
        if (n > 1) v |= uint32_t(bytes[i + 1]) << 8;
        if (n > 2) v |= bytes[i + 2];
        out += kDigits[(v >> 18) & 63];
        out += kDigits[(v >> 12) & 63];
        out += n > 1 ? kDigits[(v >> 6) & 63] : '=';
        out += n > 2 ? kDigits[v & 63] : '=';
    }
    return out;
}

std::string html_escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string handout_html(const std::string& lesson_title, const std::vector<HandoutStep>& steps) {
    const std::string title = html_escape(lesson_title.empty() ? "Lesson" : lesson_title);
    std::string h =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
        title + "</title>\n<style>" + kStyle + "</style>\n<script>" + kScript + "</script>\n</head>\n<body>\n<main>\n";
    h += "<h1>" + title +
         "</h1>\n<p class=\"subtitle\">A lesson of the ViT Visualizer: " + std::to_string(steps.size()) +
         " steps</p>\n";
    for (size_t i = 0; i < steps.size(); ++i) h += step_html(static_cast<int>(i) + 1, steps[i]);
    h += answer_key_html(steps);
    return h + "</main>\n</body>\n</html>\n";
}

void check_handout_path(const std::string& path, const std::vector<std::string>& inputs) {
    const std::string kind = non_regular_kind(path);
    if (!kind.empty()) throw Error(path + ": cannot write the hand-out (it is " + kind + ")");
    std::error_code ec;
    for (const std::string& input : inputs)
        if (!input.empty() && fs::equivalent(path, input, ec))
            throw Error(path + ": cannot write the hand-out over '" + input + "', which this run reads");
    const bool existed = fs::exists(path);
    // O_NONBLOCK: should the path become a FIFO after the check, open() returns instead of waiting.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0666);
    if (fd < 0) throw Error(path + ": cannot write the hand-out (" + std::strerror(errno) + ")");
    ::close(fd);
    if (!existed) fs::remove(path);
}

void write_handout(const std::string& path, const std::string& html) { write_whole_file(path, html, "the hand-out"); }

}  // namespace vit::gui
