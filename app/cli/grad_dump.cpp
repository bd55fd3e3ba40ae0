// --grad and --relevance: the backward pass (core/explain/backward.h) of one logit,
// written as .npy files beside the forward stages.
#include "grad_dump.h"

#include <algorithm>
#include <filesystem>

#include "explain/backward.h"
#include "base/error.h"
#include "base/parse.h"
#include "formats/npy.h"
#include "model/parameters.h"
#include "explain/relevance.h"

namespace vit::cli {

namespace {

// CLASS: `top` (the largest logit) or an index in [0, classes).
int parse_class(const std::string& flag, const std::string& value, const Model& model, const Trace& trace) {
    const int classes = model.config.num_classes;
    if (classes <= 0)
        throw Error(flag + ": " + model.config.name + " has no classifier head (num_classes 0): no logit to explain");
    if (value == "top") {
        const FloatStorage& logits = trace.at({StageKind::Logits}).data;
        return static_cast<int>(std::max_element(logits.begin(), logits.end()) - logits.begin());
    }
    const std::optional<int> cls = to_int(value, 0, classes - 1);
    if (!cls)
        throw Error(flag + " needs 'top' or a class index 0.." + std::to_string(classes - 1) + " (" +
                    model.config.name + " has " + std::to_string(classes) + " classes), got '" + value + "'");
    return *cls;
}

void write(const std::string& dir, const std::string& name, const Tensor& tensor) {
    write_npy((std::filesystem::path(dir) / (name + ".npy")).string(), tensor);
}

}  // namespace

void check_grad_request(const GradRequest& request) {
    if (!request.any()) return;
    const std::string flag = request.grad.empty() ? "--relevance" : "--grad";
    if (request.dump_dir.empty()) throw Error(flag + " writes .npy files: give the folder with --dump DIR");
    if (request.gpu) throw Error(flag + " runs on the CPU core: leave out --backend gpu");
    if (request.bench) throw Error(flag + " and --bench do not go together");
}

void dump_gradients(const GradRequest& request, const Model& model, const Trace& trace) {
    if (!request.grad.empty()) {
        const Gradients grads = logit_gradients(model, trace, parse_class("--grad", request.grad, model, trace));
        for (const Stage& s : grads.stages.stages()) write(request.dump_dir, "grad." + s.id, s.tensor);
        for (const NamedTensor& p : timm_parameters(grads.params))
            write(request.dump_dir, "grad.param." + p.name, p.tensor);
    }
    if (!request.relevance.empty()) {
        const int cls = parse_class("--relevance", request.relevance, model, trace);
        write(request.dump_dir, "relevance",
              relevance(trace, logit_gradients(model, trace, cls).stages, model.config.depth));
    }
}

}  // namespace vit::cli
