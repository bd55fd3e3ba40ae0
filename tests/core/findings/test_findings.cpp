// The analysis quantities of core/findings/ equal PyTorch's computation of the same
// quantity (tests/make_findings_fixtures.py) on the timm_f32 fixture: attention
// distance, token norms, sink scores, DINO's masks, PCA colours (up to each
// component's sign), one PCA over three inputs jointly (the input, it flipped
// left-right and upside down) and the filters' components (up to sign). Prints the
// largest difference of each.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "findings/attention_distance.h"
#include "findings/cls_mask.h"
#include "findings/pca.h"
#include "findings/token_norms.h"
#include "loading/load_model.h"
#include "formats/image.h"
#include "formats/npy.h"
#include "pass/forward.h"

namespace {

namespace fs = std::filesystem;
const fs::path kDir = fs::path(VITVIZ_FIXTURES) / "timm_f32";

struct Fixture {
    vit::Model model = vit::load_model(kDir.string());
    vit::Trace trace = vit::forward(
        model, vit::preprocess(vit::load_image((kDir / "image.png").string(), 3), model.config.preprocess, 32));
    vit::PatchTokens tokens = vit::patch_tokens(trace, model.config);
};

vit::Tensor expected(const std::string& name) { return vit::read_npy((kDir / "findings" / (name + ".npy")).string()); }

// Largest |got[i] − want[i]| over n values.
double largest(const float* got, const float* want, size_t n) {
    double worst = 0.0;
    for (size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(double(got[i]) - want[i]));
    return worst;
}

void report(const std::string& what, double difference) {
    std::cout << "findings " << what << ": largest difference from PyTorch " << difference << "\n";
}

// Colours in 0…1 (N × 3): a component's sign flips its colour v to 1 − v; each column compared both ways.
double colour_difference(const std::vector<float>& got, const vit::Tensor& want, const std::vector<uint8_t>& fg) {
    double worst = 0.0;
    for (int c = 0; c < 3; ++c) {
        double same = 0.0, flipped = 0.0;
        for (size_t p = 0; p < fg.size(); ++p) {
            if (!fg[p]) continue;
            same = std::max(same, std::abs(double(got[3 * p + c]) - want.data[3 * p + c]));
            flipped = std::max(flipped, std::abs(1.0 - got[3 * p + c] - want.data[3 * p + c]));
        }
        worst = std::max(worst, std::min(same, flipped));
    }
    return worst;
}

// The C × H × W input mirrored along its width (`across`) or its height.
vit::Tensor flipped(const vit::Tensor& x, bool across) {
    vit::Tensor out(x.shape);
    const int64_t h = x.shape[1], w = x.shape[2];
    for (int64_t c = 0; c < x.shape[0]; ++c)
        for (int64_t y = 0; y < h; ++y)
            for (int64_t i = 0; i < w; ++i)
                out.data[(c * h + y) * w + i] =
                    x.data[(c * h + (across ? y : h - 1 - y)) * w + (across ? w - 1 - i : i)];
    return out;
}

}  // namespace

TEST_CASE("findings: mean attention distance per head equals PyTorch's", "[findings]") {
    Fixture f;
    CHECK(f.tokens.prefix == 1);
    const vit::Mat got = vit::attention_distance_by_depth(f.trace, f.tokens, f.model.config.depth);
    const vit::Tensor want = expected("attention_distance");
    REQUIRE(got.size() == want.numel());
    const double d = largest(got.data(), want.data.data(), want.data.size());
    report("attention distance (px)", d);
    CHECK(d < 1e-3);
}

TEST_CASE("findings: token norms and attention sink scores equal PyTorch's", "[findings]") {
    Fixture f;
    const vit::Tensor norms = expected("token_norms"), sinks = expected("sink_scores");
    const int depth = f.model.config.depth, T = f.tokens.tokens();
    double dn = 0.0, ds = 0.0;
    for (int b = 0; b < depth; ++b) {
        const std::vector<float> n = vit::token_norms(f.trace.at(vit::StageRef{vit::StageKind::Out, b}));
        dn = std::max(dn, largest(n.data(), norms.data.data() + b * T, T) / norms.data[b * T]);
        const vit::Mat s = vit::attention_sink_scores(f.trace.at(vit::StageRef{vit::StageKind::Attn, b}));
        ds = std::max(ds, largest(s.data(), sinks.data.data() + b * s.size(), s.size()));
    }
    report("token norms (relative)", dn);
    report("sink scores", ds);
    CHECK(dn < 1e-4);
    CHECK(ds < 1e-4);
}

TEST_CASE("findings: DINO's top-mass masks equal PyTorch's", "[findings]") {
    Fixture f;
    const vit::Tensor want = expected("cls_masks");
    int differing = 0, kept = 0;
    for (int b = 0; b < f.model.config.depth; ++b) {
        const auto masks = vit::cls_attention_masks(f.trace.at(vit::StageRef{vit::StageKind::Attn, b}), f.tokens, 0.6f);
        for (size_t h = 0; h < masks.size(); ++h)
            for (size_t p = 0; p < masks[h].size(); ++p) {
                kept += masks[h][p];
                differing += masks[h][p] != (want.data[(b * masks.size() + h) * masks[h].size() + p] > 0.5f);
            }
    }
    report("CLS masks (patches that differ)", differing);
    CHECK(kept > 0);
    CHECK(differing == 0);
}

TEST_CASE("findings: patch PCA colours, one- and two-step, equal PyTorch's up to sign", "[findings]") {
    Fixture f;
    const vit::Tensor& last = f.trace.at(vit::StageRef{vit::StageKind::Out, f.model.config.depth - 1});
    const vit::PatchColours plain = vit::patch_pca_colours(last, f.tokens, false, 0.f);
    const vit::PatchColours fg = vit::patch_pca_colours(last, f.tokens, true, 0.5f);
    const vit::Tensor want_fg = expected("pca_fg_rgb");
    for (size_t p = 0; p < fg.foreground.size(); ++p) {
        const bool coloured = want_fg.data[3 * p] + want_fg.data[3 * p + 1] + want_fg.data[3 * p + 2] > 0;
        if (coloured) CHECK(fg.foreground[p] == 1);
    }
    const double d1 = colour_difference(plain.rgb, expected("pca_rgb"), plain.foreground);
    const double d2 = colour_difference(fg.rgb, want_fg, fg.foreground);
    report("PCA colours", d1);
    report("PCA colours, two-step", d2);
    CHECK(std::count(plain.foreground.begin(), plain.foreground.end(), 1) == 16);
    CHECK(d1 < 1e-3);
    CHECK(d2 < 1e-3);
}

TEST_CASE("findings: joint patch PCA over three inputs, one- and two-step, equals PyTorch's up to sign", "[findings]") {
    Fixture f;
    const int last = f.model.config.depth - 1;
    const vit::Tensor& input = f.trace.at(vit::StageRef{vit::StageKind::Input, -1});
    std::vector<vit::Trace> traces;
    traces.push_back(f.trace);
    for (bool across : {true, false}) traces.push_back(vit::forward(f.model, flipped(input, across)));
    std::vector<const vit::Tensor*> outs;
    std::vector<vit::PatchTokens> tokens;
    for (const vit::Trace& t : traces) {
        outs.push_back(&t.at(vit::StageRef{vit::StageKind::Out, last}));
        tokens.push_back(vit::patch_tokens(t, f.model.config));
    }
    for (bool two_step : {false, true}) {
        const std::vector<vit::PatchColours> got = vit::joint_patch_pca_colours(outs, tokens, two_step, 0.5f);
        REQUIRE(got.size() == 3);
        // The three images' colours as one 3·N-patch picture, compared as one image's colours are.
        std::vector<float> rgb;
        std::vector<uint8_t> fg;
        for (const vit::PatchColours& c : got) {
            rgb.insert(rgb.end(), c.rgb.begin(), c.rgb.end());
            fg.insert(fg.end(), c.foreground.begin(), c.foreground.end());
            CHECK(c.share == got[0].share);
        }
        const vit::Tensor want = expected(two_step ? "pca_joint_fg_rgb" : "pca_joint_rgb");
        REQUIRE(want.numel() == static_cast<int64_t>(rgb.size()));
        for (size_t p = 0; p < fg.size(); ++p)
            if (want.data[3 * p] + want.data[3 * p + 1] + want.data[3 * p + 2] > 0) CHECK(fg[p] == 1);
        const double d = colour_difference(rgb, want, fg);
        report(two_step ? "joint PCA colours, two-step" : "joint PCA colours", d);
        CHECK(std::count(fg.begin(), fg.end(), 1) >= (two_step ? 2 : 48));
        CHECK(d < 1e-3);
    }
}

TEST_CASE("findings: the patch filters' principal components equal PyTorch's up to sign", "[findings]") {
    Fixture f;
    const vit::Pca got = vit::filter_components(f.model, 8);
    const vit::Tensor want = expected("filter_components");
    REQUIRE(got.components.size() == want.numel());
    double worst = 0.0;
    for (int k = 0; k < got.components.rows(); ++k) {
        const float* w = want.data.data() + k * got.components.cols();
        const vit::Vec g = got.components.row(k);
        const vit::Vec neg = -g;
        worst = std::max(worst, std::min(largest(g.data(), w, g.size()), largest(neg.data(), w, g.size())));
    }
    report("filter components", worst);
    CHECK(worst < 1e-4);
}
