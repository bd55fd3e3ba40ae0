// Where a number comes from: for one clicked cell of a stage, the
// inputs that produced it, laid out as a teacher would on the board — for
// scores[h, i, j] the query row i and key row j and their products summing to
// the value; for attn the row of scores it is the softmax share of; for fc1
// the token's row and the weight row with their products plus the bias; for a
// LayerNorm output the value, the token's mean and std, γ and β. The value is
// recomputed from those numbers, so the picture can show it matches the trace.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/model.h"
#include "pass/trace.h"

namespace vit::gui {

// One clicked cell: matrix `slice` (the head of an H×T×… stage, else -1), row, column.
struct CellRef {
    StageRef stage;
    int slice = -1, row = 0, col = 0;
    bool operator==(const CellRef& o) const;
};

// A row of numbers that go into the cell, e.g. "q[h1, row 3]" (Dh values).
struct ProvenanceTerm {
    std::string name;
    std::vector<float> values;
};

struct CellProvenance {
    std::string cell;                   // "block0.scores[head 1, row 3, column 5]"
    std::string formula;                // "q · k / √16: the sum of the 16 products, divided by 4"
    std::vector<ProvenanceTerm> terms;  // the inputs, then (where there are) their products
    std::vector<std::string> working;   // the arithmetic with the numbers, a step a line: "2.345 / 4 = 0.586"
    float recomputed = 0.f;             // the value from the terms
    float stored = 0.f;                 // the trace's value
};

// Which stages explain their cells: scores, attn, fc1, ln1, ln2, norm.
bool has_provenance(StageKind kind);
// The provenance of `cell` in `trace` (computed by `model` with attention temperature
// `temperature`); nullopt for a stage without one or a cell outside the tensor.
std::optional<CellProvenance> cell_provenance(const Model& model, const Trace& trace, const CellRef& cell,
                                              float temperature = 1.f);

}  // namespace vit::gui
