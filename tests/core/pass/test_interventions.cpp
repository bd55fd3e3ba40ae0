// Interventions (core/pass/interventions.h), the logit lens and the occlusion map
// against PyTorch (tests/fixtures/interventions, written by
// tests/make_fixtures.py from tools/vitref on the timm_f32 model), the
// teaching facts they show, and the errors a bad value gets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "loading/load_model.h"
#include "explain/compare.h"
#include "base/error.h"
#include "pass/forward.h"
#include "helpers_loaders.h"
#include "explain/logit_lens.h"
#include "formats/npy.h"
#include "explain/occlusion.h"

namespace {

namespace fs = std::filesystem;
using vit::Interventions;
using vit::StageKind;
using vit::StageRef;

const fs::path kModelDir = fs::path(VITVIZ_FIXTURES) / "timm_f32";

struct Fixture {
    vit::Model model = vit::load_model(kModelDir.string());
    vit::Tensor input = vit::read_npy((kModelDir / "expected" / "input.npy").string());
};

const Fixture& fixture() {
    static const Fixture f;
    return f;
}

Interventions from_json(const nlohmann::json& j) {
    Interventions iv;
    iv.mask_patches = j.value("mask", std::vector<int>{});
    iv.drop_tokens = j.value("drop", std::vector<int>{});
    for (const auto& h : j.value("ablate", nlohmann::json::array())) iv.ablate_heads.push_back({h[0], h[1]});
    iv.no_positions = j.value("no_pos", false);
    iv.permute_patches = j.value("permute", std::vector<int>{});
    iv.temperature = j.value("temperature", 1.0f);
    return iv;
}

vit::Tensor as_tensor(const vit::Mat& m) {
    vit::Tensor t({m.rows(), m.cols()});
    t.mat() = m;
    return t;
}

vit::Tensor as_tensor(const std::vector<float>& v) {
    vit::Tensor t({static_cast<int64_t>(v.size())});
    t.data.assign(v.begin(), v.end());
    return t;
}

// Largest relative difference of `got` from the case's `name`.npy; fails above 1e-4.
double check_against(const fs::path& dir, const std::string& name, const vit::Tensor& got) {
    const vit::Tensor want = vit::read_npy((dir / (name + ".npy")).string());
    INFO(dir.filename().string() << " " << name);
    REQUIRE(got.shape == want.shape);
    const vit::Difference e = vit::compare(got, want);
    INFO("largest difference " << e.max_abs << " (relative " << e.relative() << ") at " << vit::index_string(e.where)
                               << ": got " << e.got << ", PyTorch " << e.want);
    CHECK(e.relative() <= 1e-4);
    return e.relative();
}

void check_case(const std::string& name) {
    const fs::path dir = fs::path(VITVIZ_FIXTURES) / "interventions" / name;
    std::ifstream file(dir / "case.json");
    REQUIRE(file);
    const nlohmann::json meta = nlohmann::json::parse(file);
    const Interventions iv = from_json(meta.at("interventions"));
    const Fixture& f = fixture();
    const vit::Trace trace = vit::forward(f.model, f.input, iv);

    CHECK(trace.size() == meta.at("stages").size());
    CHECK(trace.token_patches() == meta.at("token_patches").get<std::vector<int>>());
    double worst = 0;
    std::string worst_id;
    for (const vit::Stage& s : trace.stages()) {
        const double e = check_against(dir, s.id, s.tensor);
        if (e >= worst) worst = e, worst_id = s.id;
    }
    const double lens = check_against(dir, "lens", as_tensor(vit::logit_lens(f.model, trace)));
    const vit::OcclusionMap occ = vit::occlusion_map(f.model, f.input, iv);
    CHECK(occ.top_class == meta.at("top1").get<int>());
    const double occlusion = check_against(dir, "occlusion", as_tensor(occ.probabilities));
    std::cout << "interventions/" << name << ": " << trace.size()
              << " stages match PyTorch; largest relative difference " << worst << " in " << worst_id << "; logit lens "
              << lens << "; occlusion map " << occlusion << "\n";
}

bool identical(const vit::Trace& a, const vit::Trace& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a.stages()[i].id != b.stages()[i].id || a.stages()[i].tensor.data != b.stages()[i].tensor.data) {
            UNSCOPED_INFO("stage " << a.stages()[i].id << " differs");
            return false;
        }
    return true;
}

std::string error_of(const Interventions& iv) {
    try {
        vit::forward(fixture().model, fixture().input, iv);
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

// Eigen's vectorised reductions round by the storage's alignment, so passes
// are compared in the same reused Trace (the same memory).
TEST_CASE("with no interventions the forward pass is today's, bit for bit", "[interventions]") {
    const Fixture& f = fixture();
    vit::Trace trace;
    vit::forward_into(f.model, f.input, trace);
    const vit::Trace plain = trace;
    vit::forward_into(f.model, f.input, trace, Interventions{});
    CHECK(identical(plain, trace));
    Interventions neutral;  // a permutation that moves nothing, temperature 1, no heads
    for (int n = 0; n < 16; ++n) neutral.permute_patches.push_back(n);
    vit::forward_into(f.model, f.input, trace, neutral);
    CHECK(identical(plain, trace));
    std::vector<int> all(16);
    for (int n = 0; n < 16; ++n) all[n] = n;
    CHECK(trace.token_patches() == all);
}

TEST_CASE("masked patches equal PyTorch at every stage", "[interventions]") { check_case("mask"); }
TEST_CASE("dropped tokens equal PyTorch at every stage, kept tokens named by their patches", "[interventions]") {
    check_case("drop");
}
TEST_CASE("ablated heads equal PyTorch at every stage", "[interventions]") { check_case("ablate"); }
TEST_CASE("no positions equals PyTorch at every stage", "[interventions]") { check_case("no_pos"); }
TEST_CASE("permuted patches equal PyTorch at every stage", "[interventions]") { check_case("permute"); }
TEST_CASE("attention temperature equals PyTorch at every stage", "[interventions]") { check_case("temperature"); }
TEST_CASE("all interventions together equal PyTorch at every stage", "[interventions]") { check_case("combined"); }

TEST_CASE("without positions, shuffling the patches leaves the CLS token's final row unchanged", "[interventions]") {
    const Fixture& f = fixture();
    Interventions no_pos;
    no_pos.no_positions = true;
    Interventions shuffled = no_pos;
    shuffled.permute_patches = {5, 12, 0, 3, 9, 14, 1, 7, 15, 2, 11, 6, 8, 13, 4, 10};
    const vit::Trace a = vit::forward(f.model, f.input, no_pos);
    const vit::Trace b = vit::forward(f.model, f.input, shuffled);
    const vit::Tensor& na = a.at(StageRef{StageKind::Norm});
    const vit::Tensor& nb = b.at(StageRef{StageKind::Norm});
    const float diff = (na.mat().row(0) - nb.mat().row(0)).cwiseAbs().maxCoeff();
    CHECK(diff <= 1e-5f * na.mat().row(0).cwiseAbs().maxCoeff());
    // with positions the shuffle does change it
    Interventions with_pos;
    with_pos.permute_patches = shuffled.permute_patches;
    const vit::Tensor plain = vit::forward(f.model, f.input).at(StageRef{StageKind::Norm});
    const vit::Tensor moved = vit::forward(f.model, f.input, with_pos).at(StageRef{StageKind::Norm});
    CHECK((plain.mat().row(0) - moved.mat().row(0)).cwiseAbs().maxCoeff() > 1e-2f);
}

TEST_CASE("a very high temperature makes every attention row uniform", "[interventions]") {
    const Fixture& f = fixture();
    Interventions hot;
    hot.temperature = 1e7f;
    vit::Trace trace;
    vit::forward_into(f.model, f.input, trace);
    const vit::Trace plain = trace;
    vit::forward_into(f.model, f.input, trace, hot);
    for (int b = 0; b < f.model.config.depth; ++b) {
        const vit::Tensor& attn = trace.at(StageRef{StageKind::Attn, b});
        const float uniform = 1.0f / static_cast<float>(attn.shape[2]);
        CHECK((attn.mat().array() - uniform).abs().maxCoeff() <= 1e-6f);
        if (b == 0)
            CHECK(trace.at(StageRef{StageKind::Scores, b}).data == plain.at(StageRef{StageKind::Scores, b}).data);
    }
}

TEST_CASE("silencing every head of a block leaves only the projection bias in attn_out", "[interventions]") {
    const Fixture& f = fixture();
    Interventions silent;
    for (int h = 0; h < f.model.config.num_heads; ++h) silent.ablate_heads.push_back({1, h});
    const vit::Trace trace = vit::forward(f.model, f.input, silent);
    const vit::Tensor& out = trace.at(StageRef{StageKind::AttnOut, 1});
    for (int64_t t = 0; t < out.shape[0]; ++t) CHECK(out.mat().row(t) == f.model.blocks[1].proj_b.transpose());
    CHECK(trace.at(StageRef{StageKind::Res1, 1}).mat() ==
          (trace.at(StageRef{StageKind::Out, 0}).mat().rowwise() + f.model.blocks[1].proj_b.transpose()));
}

TEST_CASE("the logit lens's last row is the prediction, and the occlusion map agrees with full passes",
          "[interventions]") {
    const Fixture& f = fixture();
    const vit::Trace trace = vit::forward(f.model, f.input);
    const vit::Mat lens = vit::logit_lens(f.model, trace);
    REQUIRE(lens.rows() == f.model.config.depth);
    const vit::Tensor& probs = trace.at(StageRef{StageKind::Probs});
    CHECK((lens.row(lens.rows() - 1) - probs.mat()).cwiseAbs().maxCoeff() <= 1e-6f);

    const vit::OcclusionMap occ = vit::occlusion_map(f.model, f.input);
    REQUIRE(occ.probabilities.size() == 16);
    for (int n = 0; n < 16; ++n) {
        Interventions masked;
        masked.mask_patches = {n};
        const float full = vit::forward(f.model, f.input, masked).at(StageRef{StageKind::Probs}).data[occ.top_class];
        CHECK(occ.probabilities[n] == Approx(full).epsilon(1e-4));  // rounding only (storage alignment)
    }
    vit::OcclusionMapper in_pieces;  // a few patches a piece: the same map
    in_pieces.start(f.model, f.input);
    int pieces = 1;
    while (in_pieces.next(3)) ++pieces;
    CHECK(pieces == 6);  // 16 patches, 3 a piece
    CHECK(in_pieces.map().top_class == occ.top_class);
    CHECK(in_pieces.map().probabilities == occ.probabilities);
}

TEST_CASE("a partial occlusion map holds exactly the patches computed, each with its final value", "[interventions]") {
    const Fixture& f = fixture();
    Interventions base;
    base.mask_patches = {2};  // a hidden patch gets its value in its turn too
    const vit::OcclusionMap whole = vit::occlusion_map(f.model, f.input, base);
    const vit::PackedWeights packed(f.model);
    vit::OcclusionMapper mapper;
    mapper.start(f.model, f.input, base, &packed);  // the caller's packed weights: the same map
    CHECK(mapper.map().computed == 0);
    for (float p : mapper.map().probabilities) CHECK(std::isnan(p));
    int expect = 0;
    bool more = true;
    while (more) {
        more = mapper.next(5);
        expect = std::min(16, expect + 5);
        const vit::OcclusionMap& part = mapper.map();
        REQUIRE(part.computed == expect);
        CHECK(part.complete() == !more);
        for (int n = 0; n < 16; ++n) {
            if (n < expect) CHECK(part.probabilities[n] == whole.probabilities[n]);
            else CHECK(std::isnan(part.probabilities[n]));
        }
    }
    CHECK(whole.complete());
    CHECK(whole.probabilities[2] == whole.top_probability);
}

TEST_CASE("a bad intervention is one error naming it and its value", "[interventions]") {
    Interventions iv;
    iv.mask_patches = {3, 16};
    CHECK(error_of(iv).find("mask patches: patch 16 is out of range") != std::string::npos);
    iv = {};
    for (int n = 0; n < 16; ++n) iv.mask_patches.push_back(n);
    CHECK(error_of(iv).find("mask patches: masking all 16") != std::string::npos);
    iv = {};
    iv.drop_tokens = {-1};
    CHECK(error_of(iv).find("drop tokens: patch -1") != std::string::npos);
    for (int n = 0; n < 16; ++n) iv.drop_tokens.push_back(n);
    iv.drop_tokens.erase(iv.drop_tokens.begin());
    CHECK(error_of(iv).find("drop tokens: dropping all 16") != std::string::npos);
    iv = {};
    iv.ablate_heads = {{1, 3}};
    CHECK(error_of(iv).find("ablate heads: head 1:3 does not exist") != std::string::npos);
    iv = {};
    iv.permute_patches = {0, 1, 2};
    CHECK(error_of(iv).find("permute patches: the list of 3 numbers is not a permutation of 0-15") !=
          std::string::npos);
    iv.permute_patches.assign(16, 0);
    CHECK(error_of(iv).find("not a permutation") != std::string::npos);
    iv = {};
    iv.temperature = 0.0f;
    CHECK(error_of(iv).find("temperature: 0") != std::string::npos);
    iv.temperature = -2.0f;
    CHECK(error_of(iv).find("temperature: -2") != std::string::npos);
}

TEST_CASE("the CLI applies the interventions, dumps every stage, the occlusion map and the logit lens",
          "[interventions]") {
    if (!fs::exists(VITVIZ_CLI)) return;  // not built in this configuration
    vit_test::TempDir dir;
    const std::string cli = std::string(VITVIZ_CLI) + " --model " + kModelDir.string() + " --image " +
                            (kModelDir / "image.png").string() + " --top 1";
    const std::string quiet = " > " + dir.path("out.txt") + " 2> " + dir.path("err.txt");
    const std::string combined =
        " --mask-patches 4,9 --drop-tokens 0,10-11 --ablate-heads 1:1 --no-pos --temperature 0.7"
        " --permute-patches 15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0";
    REQUIRE(vit_test::run_command(cli + combined + " --occlusion-map --logit-lens --dump " + dir.path("d") + quiet) ==
            0);
    const fs::path want = fs::path(VITVIZ_FIXTURES) / "interventions" / "combined";
    std::ifstream file(want / "case.json");
    for (const std::string& id : nlohmann::json::parse(file).at("stages").get<std::vector<std::string>>())
        check_against(want, id, vit::read_npy(dir.path("d/" + id + ".npy")));
    check_against(want, "occlusion", vit::read_npy(dir.path("d/occlusion.npy")));
    check_against(want, "lens", vit::read_npy(dir.path("d/lens.npy")));
    CHECK_THAT(vit_test::read_file_text(dir.path("out.txt")),
               Catch::Contains("occlusion map") && Catch::Contains("logit lens"));

    const std::string headless = (fs::path(VITVIZ_FIXTURES) / "headless").string();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {" --mask-patches 3,16", "--mask-patches '3,16': mask patches: patch 16 is out of range"},
        {" --mask-patches 0-15", "--mask-patches '0-15': mask patches: masking all 16 patches"},
        {" --drop-tokens 0-15", "--drop-tokens '0-15': drop tokens: dropping all 16"},
        {" --drop-tokens 2,x", "--drop-tokens '2,x': expected a whole number of at least 0, got 'x'"},
        {" --ablate-heads 0:3", "--ablate-heads '0:3': ablate heads: head 0:3 does not exist"},
        {" --ablate-heads 0-1", "--ablate-heads '0-1': expected BLOCK:HEAD pairs such as 0:1,3:2, got '0-1'"},
        {" --permute-patches 0,1,1,3,4,5,6,7,8,9,10,11,12,13,14,15",
         "--permute-patches '0,1,1,3,4,5,6,7,8,9,10,11,12,13,14,15': permute patches"},
        {" --temperature -1", "--temperature '-1': temperature: -1 is not a positive number"},
        {" --temperature", "--temperature needs a value"},
    };
    for (const auto& [args, expected] : cases) {
        INFO("vitviz-cli" << args);
        CHECK(vit_test::run_command(cli + args + quiet) == 1);
        CHECK_THAT(vit_test::read_file_text(dir.path("err.txt")), Catch::Contains(expected));
    }
    for (const std::string flag : {"--occlusion-map", "--logit-lens"}) {
        INFO(flag);
        CHECK(vit_test::run_command(std::string(VITVIZ_CLI) + " --model " + headless + " --image " + headless +
                                    "/image.png " + flag + quiet) == 1);
        CHECK_THAT(vit_test::read_file_text(dir.path("err.txt")),
                   Catch::Contains(flag + ": ") && Catch::Contains("has no classifier head"));
    }
}
