// The logit lens (logit_lens.h): norm → head → softmax on every block's CLS row.
#include "explain/logit_lens.h"

#include "base/error.h"
#include "pass/layers.h"

namespace vit {

Mat logit_lens(const Model& model, const Trace& trace) {
    const ModelConfig& c = model.config;
    if (c.num_classes == 0) throw Error(c.name + " has no classifier head: no logit lens");
    if (!c.plain_tokens())
        throw Error(c.name +
                    ": the logit lens reads the CLS row through the final norm and one head; this model "
                    "pools or has two heads");
    Mat cls_rows(c.depth, c.embed_dim);
    for (int b = 0; b < c.depth; ++b) cls_rows.row(b) = trace.at(StageRef{StageKind::Out, b}).mat().row(0);
    Mat normed(c.depth, c.embed_dim);
    layer_norm(cls_rows, model.norm_w, model.norm_b, c.ln_eps, MatMap(normed.data(), c.depth, c.embed_dim));
    Mat lens(c.depth, c.num_classes);
    linear(normed, model.head_w, model.head_b, MatMap(lens.data(), c.depth, c.num_classes));
    softmax_rows(lens, MatMap(lens.data(), c.depth, c.num_classes));
    return lens;
}

}  // namespace vit
