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

// Readable on screen and on paper, with the fonts every system has.
const char* kStyle = R"(
body { margin: 0; background: #fdfcf9; color: #1d1d1f; font: 18px/1.55 Georgia, "DejaVu Serif", "Times New Roman", serif; }
main { max-width: 62rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; }
h1 { font: 700 2.2rem/1.2 "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; margin: 0 0 .3rem; }
.subtitle { color: #666; margin: 0 0 2rem; font-family: Arial, "DejaVu Sans", sans-serif; font-size: .95rem; }
section { border-top: 1px solid #ddd; padding: 1.6rem 0; page-break-inside: avoid; }
h2 { font: 700 1.45rem/1.3 "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; margin: 0 0 .8rem; }
h2 .number { color: #b26b00; margin-right: .5rem; }
img { display: block; width: 100%; height: auto; border: 1px solid #ccc; border-radius: 4px; }
.narration { margin: 1rem 0 .5rem; }
.answer { color: #1f5f8b; font-family: Arial, "DejaVu Sans", sans-serif; font-size: .95rem; margin: .3rem 0; }
.question { background: #fff4dc; border-left: 4px solid #e0a020; padding: .5rem .9rem; margin: .8rem 0; }
.stage { background: #f3f3f0; border-radius: 4px; padding: .6rem .9rem; margin-top: .8rem; font-size: .9rem; }
.stage .name { font-family: Arial, "DejaVu Sans", sans-serif; font-weight: 700; margin-bottom: .3rem; }
.stage pre { margin: .2rem 0; white-space: pre-wrap; font: .92rem/1.4 "DejaVu Sans Mono", Consolas, monospace; }
.formula { color: #7a4b00; }
.pytorch { color: #1d6b2a; }
@media print { body { background: white; font-size: 12pt; } main { max-width: none; } }
)";

// Marks each picture with the width it decoded to (0: it did not), for checks without a screen.
const char* kScript =
    "window.addEventListener('load', function () {"
    " document.querySelectorAll('img').forEach(function (img) {"
    " img.setAttribute('data-natural-width', String(img.naturalWidth)); }); });";

std::string paragraph(const char* cls, const std::string& text, const std::string& prefix = "") {
    if (text.empty()) return "";
    return "<p class=\"" + std::string(cls) + "\">" + prefix + html_escape(text) + "</p>\n";
}

std::string step_html(int number, const HandoutStep& s) {
    std::string h = "<section id=\"step-" + std::to_string(number) + "\">\n";
    h += "<h2><span class=\"number\">" + std::to_string(number) + "</span>" + html_escape(s.title) + "</h2>\n";
    h += "<img alt=\"step " + std::to_string(number) + ": " + html_escape(s.title) + "\" src=\"data:image/png;base64," +
         base64(s.png) + "\">\n";
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

}  // namespace

std::optional<StageRef> handout_stage(const AppState& s, const Pipeline& p) {
    switch (s.screen) {
        case Screen::Stage:
            if (s.stage >= 0 && s.stage < p.size()) return p.stages[static_cast<size_t>(s.stage)];
            return std::nullopt;
        case Screen::Attention:
        case Screen::ModelView:
            if (p.depth > 0) return StageRef{StageKind::Attn, s.layer};
            return std::nullopt;
        case Screen::Overview:
        case Screen::Why:
        case Screen::AttentionDistance:
        case Screen::PatchFeatures:
        case Screen::TokenNorms:
        case Screen::ClsMasks: return std::nullopt;
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
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
                    title + "</title>\n<style>" + kStyle + "</style>\n<script>" + kScript + "</script>\n</head>\n<body>\n<main>\n";
    h += "<h1>" + title + "</h1>\n<p class=\"subtitle\">A lesson of the ViT Visualizer: " + std::to_string(steps.size()) +
         " steps</p>\n";
    for (size_t i = 0; i < steps.size(); ++i) h += step_html(static_cast<int>(i) + 1, steps[i]);
    return h + "</main>\n</body>\n</html>\n";
}

std::string handout_picture_dir(const std::string& html_path) {
    fs::path p(html_path);
    return (p.parent_path() / (p.stem().string() + "-steps")).string();
}

void check_handout_path(const std::string& path) {
    const std::string kind = non_regular_kind(path);
    if (!kind.empty()) throw Error(path + ": cannot write the hand-out (it is " + kind + ")");
    const bool existed = fs::exists(path);
    // O_NONBLOCK: should the path become a FIFO after the check, open() returns instead of waiting.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0666);
    if (fd < 0) throw Error(path + ": cannot write the hand-out (" + std::strerror(errno) + ")");
    ::close(fd);
    if (!existed) fs::remove(path);
}

void write_handout(const std::string& path, const std::string& html) { write_whole_file(path, html, "the hand-out"); }

}  // namespace vit::gui
