// Model's weights under timm's VisionTransformer state_dict names and shapes.
#include "model/parameters.h"

namespace vit {

namespace {

class ParameterList {
public:
    void add(const std::string& name, const float* data, std::vector<int64_t> shape) {
        Tensor t(std::move(shape));
        if (t.numel() == 0) return;
        t.data.assign(data, data + t.numel());
        list_.push_back({name, std::move(t)});
    }
    void add(const std::string& name, const Mat& m) { add(name, m.data(), {m.rows(), m.cols()}); }
    void add(const std::string& name, const Vec& v) { add(name, v.data(), {v.size()}); }
    // `module.weight` and `module.bias` (w: a Mat for linear layers, a Vec for LayerNorm)
    template <typename Weight>
    void add_module(const std::string& module, const Weight& w, const Vec& b) {
        add(module + ".weight", w);
        add(module + ".bias", b);
    }
    std::vector<NamedTensor> take() { return std::move(list_); }

private:
    std::vector<NamedTensor> list_;
};

}  // namespace

std::vector<NamedTensor> timm_parameters(const Model& model) {
    const ModelConfig& c = model.config;
    ParameterList list;
    if (c.class_token) list.add("cls_token", model.cls_token.data(), {1, 1, model.cls_token.size()});
    if (c.dist_token) list.add("dist_token", model.dist_token.data(), {1, 1, model.dist_token.size()});
    if (c.reg_tokens > 0)
        list.add("reg_token", model.reg_token.data(), {1, model.reg_token.rows(), model.reg_token.cols()});
    list.add("pos_embed", model.pos_embed.data(), {1, model.pos_embed.rows(), model.pos_embed.cols()});
    list.add("patch_embed.proj.weight", model.patch_w.data(),
             {model.patch_w.rows(), c.channels, c.patch_size, c.patch_size});
    list.add("patch_embed.proj.bias", model.patch_b);                 // none with norm_pre
    list.add_module("norm_pre", model.norm_pre_w, model.norm_pre_b);  // empty: not listed
    for (size_t b = 0; b < model.blocks.size(); ++b) {
        const BlockWeights& w = model.blocks[b];
        const std::string p = "blocks." + std::to_string(b) + ".";
        list.add_module(p + "norm1", w.ln1_w, w.ln1_b);
        list.add_module(p + "attn.qkv", w.qkv_w, w.qkv_b);
        list.add_module(p + "attn.proj", w.proj_w, w.proj_b);
        list.add(p + "ls1.gamma", w.ls1);  // LayerScale; empty: not listed
        list.add_module(p + "norm2", w.ln2_w, w.ln2_b);
        list.add_module(p + "mlp.fc1", w.fc1_w, w.fc1_b);
        list.add_module(p + "mlp.fc2", w.fc2_w, w.fc2_b);
        list.add(p + "ls2.gamma", w.ls2);
    }
    list.add("norm.weight", model.norm_w);  // the final LayerNorm (empty, left out, under fc_norm)
    list.add("norm.bias", model.norm_b);
    list.add("fc_norm.weight", model.fc_norm_w);  // empty (left out) unless fc_norm
    list.add("fc_norm.bias", model.fc_norm_b);
    list.add_module("head", model.head_w, model.head_b);
    if (c.dist_token) list.add_module("head_dist", model.head_dist_w, model.head_dist_b);
    return list.take();
}

}  // namespace vit
