// The inputs of one cell, read from the trace and the model's weights, and
// the value recomputed from them.
#include "logic/describe/cell_provenance.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "logic/describe/stage_kinds.h"
#include "pass/layers.h"
#include "pass/stages.h"

namespace vit::gui {

namespace {

std::string num(float v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    return b;
}

// Row `row` of matrix `slice` (-1: the whole tensor) of a rank-2 or rank-3 tensor.
std::vector<float> row_of(const Tensor& t, int slice, int row) {
    const int64_t cols = t.shape.back(), rows = t.shape[t.rank() - 2];
    const int64_t at = (std::max(slice, 0) * rows + row) * cols;
    return {t.data.begin() + at, t.data.begin() + at + cols};
}

float cell_of(const Tensor& t, const CellRef& c) { return row_of(t, c.slice, c.row)[static_cast<size_t>(c.col)]; }

bool inside(const Tensor& t, const CellRef& c) {
    if (t.rank() < 2 || t.rank() > 3 || (t.rank() == 3) != (c.slice >= 0)) return false;
    if (t.rank() == 3 && c.slice >= t.shape[0]) return false;
    return c.row >= 0 && c.row < t.shape[t.rank() - 2] && c.col >= 0 && c.col < t.shape.back();
}

std::string head_cell(const CellRef& c) {
    return (c.slice >= 0 ? "head " + std::to_string(c.slice) + ", " : std::string()) + "row " + std::to_string(c.row) +
           ", column " + std::to_string(c.col);
}

std::vector<float> products(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> p(a.size());
    for (size_t i = 0; i < a.size(); ++i) p[i] = a[i] * b[i];
    return p;
}

float sum(const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += x;
    return static_cast<float>(s);
}

// scores[h, i, j] = q_h[i] · k_h[j] / √Dh
CellProvenance scores(const Trace& trace, const CellRef& c) {
    const int b = c.stage.block;
    const std::vector<float> q = row_of(trace.at(StageRef{StageKind::Q, b}), c.slice, c.row);
    const std::vector<float> k = row_of(trace.at(StageRef{StageKind::K, b}), c.slice, c.col);
    const float root = std::sqrt(static_cast<float>(q.size())), dot = sum(products(q, k));
    CellProvenance p;
    p.formula = "q of token row " + std::to_string(c.row) + " · k of token row " + std::to_string(c.col) + " / √" +
                std::to_string(q.size()) + ": multiply them number by number, add the " + std::to_string(q.size()) +
                " products, divide by " + num(root);
    p.terms = {{"q (head " + std::to_string(c.slice) + ", row " + std::to_string(c.row) + ")", q},
               {"k (head " + std::to_string(c.slice) + ", row " + std::to_string(c.col) + ")", k},
               {"q × k, number by number", products(q, k)}};
    p.recomputed = dot / root;
    p.working = {"sum of the products = " + num(dot), num(dot) + " / " + num(root) + " = " + num(p.recomputed)};
    return p;
}

// attn[h, i, j] = exp(s_ij/τ − m) / Σ_k exp(s_ik/τ − m), m the row's largest s/τ
CellProvenance attn(const Trace& trace, const CellRef& c, float temperature) {
    const std::vector<float> s = row_of(trace.at(StageRef{StageKind::Scores, c.stage.block}), c.slice, c.row);
    float top = -INFINITY;
    for (float v : s) top = std::max(top, v / temperature);
    std::vector<float> e(s.size());
    for (size_t k = 0; k < s.size(); ++k) e[k] = std::exp(s[k] / temperature - top);
    const float total = sum(e), mine = e[static_cast<size_t>(c.col)];
    CellProvenance p;
    p.formula = "softmax of the scores row " + std::to_string(c.row) +
                (temperature != 1.f ? " / τ = " + num(temperature) : "") +
                ": exp of each score (less the row's largest, which changes nothing), divided by the row's total";
    p.terms = {{"scores (head " + std::to_string(c.slice) + ", row " + std::to_string(c.row) + ")", s},
               {"exp(score − largest)", e}};
    p.recomputed = mine / total;
    p.working = {"exp(" + num(s[static_cast<size_t>(c.col)]) + (temperature != 1.f ? " / " + num(temperature) : "") +
                     " − " + num(top) + ") = " + num(mine),
                 "row total = " + num(total), num(mine) + " / " + num(total) + " = " + num(p.recomputed)};
    return p;
}

// fc1[i, m] = ln2[i] · W_fc1[m] + b[m]
CellProvenance fc1(const Model& model, const Trace& trace, const CellRef& c) {
    const BlockWeights& w = model.blocks[static_cast<size_t>(c.stage.block)];
    const std::vector<float> x = row_of(trace.at(StageRef{StageKind::Ln2, c.stage.block}), -1, c.row);
    std::vector<float> weights(x.size());
    for (size_t d = 0; d < x.size(); ++d) weights[d] = w.fc1_w(c.col, static_cast<Eigen::Index>(d));
    const float bias = w.fc1_b.size() ? w.fc1_b(c.col) : 0.f, dot = sum(products(x, weights));
    CellProvenance p;
    p.formula = "ln2's row " + std::to_string(c.row) + " · fc1's weights for hidden feature " + std::to_string(c.col) +
                " + its bias: " + std::to_string(x.size()) + " products added up";
    p.terms = {{"ln2 (row " + std::to_string(c.row) + ")", x},
               {"fc1 weight row " + std::to_string(c.col), weights},
               {"products", products(x, weights)}};
    p.recomputed = dot + bias;
    p.working = {"sum of the products = " + num(dot), num(dot) + " + bias " + num(bias) + " = " + num(p.recomputed)};
    return p;
}

// LayerNorm: y[i, d] = (x[i, d] − mean_i) / √(var_i + eps) · γ[d] + β[d]
CellProvenance layer_norm_cell(const Model& model, const Trace& trace, const CellRef& c) {
    const std::optional<StageRef> in = stage_input(c.stage, model.config.depth, model.config.norm_pre);
    const std::vector<float> x = row_of(trace.at(*in), -1, c.row);
    const FloatStorage aligned(x.begin(), x.end());  // the row's sums split the same way wherever x lies
    const Vec* gamma = &model.norm_w;
    const Vec* beta = &model.norm_b;
    if (c.stage.kind != StageKind::Norm) {
        const BlockWeights& w = model.blocks[static_cast<size_t>(c.stage.block)];
        gamma = c.stage.kind == StageKind::Ln1 ? &w.ln1_w : &w.ln2_w;
        beta = c.stage.kind == StageKind::Ln1 ? &w.ln1_b : &w.ln2_b;
    }
    const Eigen::Map<const Eigen::ArrayXf, Eigen::Aligned> row(aligned.data(), static_cast<Eigen::Index>(x.size()));
    const RowNorm n = row_norm(row, model.config.ln_eps);
    const float v = x[static_cast<size_t>(c.col)], g = (*gamma)(c.col), bt = (*beta)(c.col);
    CellProvenance p;
    p.formula = "(x − the row's mean) / its std, times γ, plus β: the token's " + std::to_string(x.size()) +
                " numbers set to mean 0 and std 1, then scaled per feature";
    p.terms = {{stage_id(*in) + " (row " + std::to_string(c.row) + ")", x}};
    p.recomputed = (v - n.mean) * n.inv_std * g + bt;
    const float z = (v - n.mean) * n.inv_std;
    p.working = {"x = " + num(v) + ", mean " + num(n.mean) + ", std " + num(1.f / n.inv_std),
                 "(x − mean) / std = " + num(z),
                 num(z) + " × γ " + num(g) + " + β " + num(bt) + " = " + num(p.recomputed)};
    return p;
}

}  // namespace

bool CellRef::operator==(const CellRef& o) const {
    return stage == o.stage && slice == o.slice && row == o.row && col == o.col;
}

bool has_provenance(StageKind kind) { return stage_kind_row(kind).trace != CellTrace::None; }

std::optional<CellProvenance> cell_provenance(const Model& model, const Trace& trace, const CellRef& cell,
                                              float temperature) {
    const Tensor* t = trace.tensor(cell.stage);
    if (!t || !has_provenance(cell.stage.kind) || !inside(*t, cell)) return std::nullopt;
    CellProvenance p;
    switch (stage_kind_row(cell.stage.kind).trace) {
        case CellTrace::Scores: p = scores(trace, cell); break;
        case CellTrace::Attn: p = attn(trace, cell, temperature); break;
        case CellTrace::Fc1: p = fc1(model, trace, cell); break;
        case CellTrace::LayerNorm: p = layer_norm_cell(model, trace, cell); break;
        case CellTrace::None: return std::nullopt;
    }
    p.cell = stage_id(cell.stage) + "[" + head_cell(cell) + "]";
    p.stored = cell_of(*t, cell);
    return p;
}

}  // namespace vit::gui
