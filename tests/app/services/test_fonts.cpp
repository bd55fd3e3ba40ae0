// The app's fonts (app/gui/services/fonts.h) draw every character its own text
// uses: every non-ASCII code point in a string literal of core/ and app/gui/
// (the stage catalogue, screens, panels, messages), in the built-in lessons and
// in the ImageNet class names has a glyph in each face the app loads, so no
// arrow, dash or Greek letter is drawn as '?'. And without the fonts, the app
// is told so in one line.
#include <catch2/catch.hpp>
#include <imgui.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "services/fonts.h"

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The end of the quoted literal opening at text[i] ('"' or '\''), escapes skipped.
size_t literal_end(const std::string& text, size_t i) {
    const char quote = text[i];
    for (size_t j = i + 1; j < text.size(); ++j) {
        if (text[j] == '\\') ++j;
        else if (text[j] == quote || text[j] == '\n') return j;
    }
    return text.size();
}

// The contents of every string and character literal of C++ source `text` (raw strings
// too), comments left out.
std::string literals(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 2, "//") == 0) {
            i = text.find('\n', i);
            if (i == std::string::npos) break;
        } else if (text.compare(i, 2, "/*") == 0) {
            i = text.find("*/", i + 2);
            if (i == std::string::npos) break;
            ++i;
        } else if (text.compare(i, 2, "R\"") == 0 &&
                   (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
            const size_t open = text.find('(', i);
            const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
            const size_t end = text.find(close, open);
            out += text.substr(open + 1, end - open - 1) + '\n';
            i = end + close.size() - 1;
        } else if (text[i] == '"' ||
                   (text[i] == '\'' && (i == 0 || !std::isxdigit(static_cast<unsigned char>(text[i - 1]))))) {
            const size_t end = literal_end(text, i);
            out += text.substr(i + 1, end - i - 1) + '\n';
            i = end;
        }
    }
    return out;
}

// Each non-ASCII code point of UTF-8 `text`, with the first file that uses it.
void add_code_points(const std::string& text, const std::string& file, std::map<unsigned, std::string>& into) {
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
        unsigned cp = extra == 0 ? c : c & (0x3F >> extra);
        for (int k = 1; k <= extra && i + k < text.size(); ++k)
            cp = cp << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        if (cp >= 0x80) into.emplace(cp, file);
        i += static_cast<size_t>(extra) + 1;
    }
}

// What the app draws: literals of its sources, the built-in lessons and the class names.
std::map<unsigned, std::string> drawn_code_points() {
    const fs::path root = VITVIZ_SOURCE_DIR;
    std::map<unsigned, std::string> used;
    for (const char* folder : {"core", "app/gui"})
        for (const fs::directory_entry& e : fs::recursive_directory_iterator(root / folder)) {
            const std::string ext = e.path().extension().string();
            if (ext == ".cpp" || ext == ".h") add_code_points(literals(read_text(e.path())), e.path().string(), used);
        }
    for (const fs::directory_entry& e : fs::directory_iterator(root / "assets/lessons"))
        add_code_points(read_text(e.path()), e.path().string(), used);
    add_code_points(read_text(root / "assets/imagenet_labels.txt"), "assets/imagenet_labels.txt", used);
    return used;
}

std::string utf8(unsigned cp) {
    std::string s;
    if (cp < 0x800) s = {char(0xC0 | cp >> 6), char(0x80 | (cp & 0x3F))};
    else s = {char(0xE0 | cp >> 12), char(0x80 | (cp >> 6 & 0x3F)), char(0x80 | (cp & 0x3F))};
    return s;
}

struct ImGuiContextScope {
    ImGuiContextScope() { ImGui::CreateContext(); }
    ~ImGuiContextScope() { ImGui::DestroyContext(); }
};

}  // namespace

TEST_CASE("the literal scanner finds strings and characters, not comments", "[fonts]") {
    const std::string src =
        "// not → this\nauto a = \"x → y\"; /* nor ← */ char b = 'é'; auto c = R\"(√)\"; int d = 1'000;";
    std::map<unsigned, std::string> found;
    add_code_points(literals(src), "src", found);
    CHECK(found.count(0x2192) == 1);
    CHECK(found.count(0x00E9) == 1);
    CHECK(found.count(0x221A) == 1);
    CHECK(found.count(0x2190) == 0);
    CHECK(found.size() == 3);
}

TEST_CASE("every character the app's text uses has a glyph in each face the app loads", "[fonts]") {
    const std::map<unsigned, std::string> used = drawn_code_points();
    INFO(used.size() << " non-ASCII code points used");
    REQUIRE(used.count(0x2192) == 1);  // → (the tour's and the lessons' arrows): the scan reads the sources
    REQUIRE(used.count(0x1D40) == 1);  // ᵀ (the catalogue's Q·Kᵀ)
    ImGuiContextScope scope;
    vit::gui::Fonts fonts;
    vit::gui::load_fonts(fonts, 1.f);
    INFO(fonts.missing);
    REQUIRE(fonts.missing.empty());
    REQUIRE(ImGui::GetIO().Fonts->Build());
    const std::pair<const char*, ImFont*> faces[] = {{"body", fonts.body},
                                                     {"heading", fonts.heading},
                                                     {"mono", fonts.mono},
                                                     {"presenter body", fonts.big_body},
                                                     {"presenter heading", fonts.big_heading},
                                                     {"presenter mono", fonts.big_mono}};
    std::set<std::string> without;
    for (const auto& [cp, file] : used)
        for (const auto& [face, font] : faces)
            if (!font->FindGlyphNoFallback(static_cast<ImWchar>(cp)))
                without.insert(utf8(cp) + " (U+" + std::to_string(cp) + ", " + face + ", used in " + file + ")");
    for (const std::string& w : without) UNSCOPED_INFO("no glyph: " << w);
    CHECK(without.empty());
}

TEST_CASE("without the DejaVu fonts the app draws ASCII and says which package brings them", "[fonts]") {
    ImGuiContextScope scope;
    vit::gui::Fonts fonts;
    vit::gui::load_fonts(fonts, 1.f, "/nonexistent-font-folder");
    CHECK(fonts.body != nullptr);
    CHECK(fonts.missing.find("/nonexistent-font-folder") != std::string::npos);
    CHECK(fonts.missing.find("fonts-dejavu-core") != std::string::npos);
    CHECK(fonts.missing.find('\n') == std::string::npos);
}
