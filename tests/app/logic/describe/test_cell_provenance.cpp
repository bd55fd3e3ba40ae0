// "Where a number comes from": the inputs shown for a clicked cell
// recompute the trace's value — scores from q and k, attn from its row of
// scores (with the temperature), fc1 from ln2 and the weights, LayerNorm from
// the row's mean and std — on the digits model, at every head and a spread of cells.
#include <catch2/catch.hpp>

#include <cmath>

#include "logic/describe/cell_provenance.h"
#include "pass/forward.h"
#include "formats/image.h"
#include "loading/builtin.h"
#include "logic/jobs/loader.h"

using namespace vit::gui;

static void require_recomputed(const vit::Model& model, const vit::Trace& trace, vit::StageKind kind, int block,
                               float temperature = 1.f) {
    const vit::Tensor& t = trace.at(vit::StageRef{kind, block});
    const int slices = t.rank() == 3 ? static_cast<int>(t.shape[0]) : 1;
    const int rows = static_cast<int>(t.shape[t.rank() - 2]), cols = static_cast<int>(t.shape.back());
    float worst = 0.f;
    for (int s = 0; s < slices; ++s)
        for (int r = 0; r < rows; r += 3)
            for (int c = 0; c < cols; c += 5) {
                const CellRef cell{{kind, block}, t.rank() == 3 ? s : -1, r, c};
                const std::optional<CellProvenance> p = cell_provenance(model, trace, cell, temperature);
                REQUIRE(p);
                REQUIRE(p->stored == t.data[(static_cast<size_t>(s) * rows + r) * cols + c]);
                REQUIRE_FALSE(p->terms.empty());
                worst = std::max(worst, std::abs(p->recomputed - p->stored) / (1e-5f + 1e-4f * std::abs(p->stored)));
            }
    INFO(vit::stage_id({kind, block}) << ": largest difference in tolerances (1e-5 + 1e-4·|value|) " << worst);
    CHECK(worst <= 1.f);
}

TEST_CASE("a clicked cell's inputs recompute its value: scores, attn, fc1 and every LayerNorm") {
    const Loaded digits = load_and_run({"digits", "", 0}, nullptr, "");
    const vit::Model& model = *digits.model;
    const vit::Tensor input = vit::preprocess(vit::model_image("digits", "", 1), model.config.preprocess);
    const vit::Trace trace = vit::forward(model, input);
    for (int b : {0, model.config.depth - 1}) {
        require_recomputed(model, trace, vit::StageKind::Scores, b);
        require_recomputed(model, trace, vit::StageKind::Attn, b);
        require_recomputed(model, trace, vit::StageKind::Fc1, b);
        require_recomputed(model, trace, vit::StageKind::Ln1, b);
        require_recomputed(model, trace, vit::StageKind::Ln2, b);
    }
    require_recomputed(model, trace, vit::StageKind::Norm, -1);

    SECTION("attn under a temperature is the softmax of scores / τ") {
        vit::Interventions iv;
        iv.temperature = 2.5f;
        const vit::Trace hot = vit::forward(model, input, iv);
        require_recomputed(model, hot, vit::StageKind::Attn, 1, 2.5f);
        const CellRef cell{{vit::StageKind::Attn, 1}, 0, 0, 0};
        CHECK(std::abs(cell_provenance(model, hot, cell, 1.f)->recomputed -
                       cell_provenance(model, hot, cell, 2.5f)->stored) > 1e-4f);
    }
    SECTION("a scores cell shows q, k and their products, which sum to the value times √Dh") {
        const std::optional<CellProvenance> p = cell_provenance(model, trace, {{vit::StageKind::Scores, 0}, 2, 3, 5});
        REQUIRE(p->terms.size() == 3);
        CHECK(p->cell == "block0.scores[head 2, row 3, column 5]");
        double total = 0;
        for (float v : p->terms[2].values) total += v;
        CHECK(total / std::sqrt(16.0) == Approx(p->stored).margin(1e-5));
    }
    SECTION("stages without provenance and cells outside the tensor give nothing") {
        CHECK_FALSE(cell_provenance(model, trace, {{vit::StageKind::Gelu, 0}, -1, 0, 0}));
        CHECK_FALSE(cell_provenance(model, trace, {{vit::StageKind::Scores, 0}, 4, 0, 0}));   // 4 heads: 0–3
        CHECK_FALSE(cell_provenance(model, trace, {{vit::StageKind::Fc1, 0}, -1, 17, 0}));    // 17 tokens: 0–16
        CHECK_FALSE(cell_provenance(model, trace, {{vit::StageKind::Scores, 0}, -1, 0, 0}));  // needs a head
    }
}
