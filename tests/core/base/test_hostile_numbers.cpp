// Hostile numbers on the command line: a thread count above the machine's
// cores is refused at once (under an address-space limit it used to hang in
// OpenBLAS), a temperature too small is refused, attention stays finite at the
// smallest temperature for any finite scores, and a pass whose answer holds
// NaN or Inf never prints it as an answer: one message and exit 1.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>

#include "base/bounds.h"
#include "base/finite.h"
#include "helpers_loaders.h"
#include "pass/attention.h"
#include "tensor/threads.h"

using namespace vit_test;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

struct CliRun {
    int status;
    std::string out, err;
};

// vitviz-cli with `args` under `ulimit -v 4000000` (4 GB of address space),
// stopped after 20 s (status 124) should it hang. AddressSanitizer reserves
// terabytes of shadow address space, so its builds run without the limit.
#if defined(__SANITIZE_ADDRESS__)
constexpr const char* kAddressLimit = "";
#else
constexpr const char* kAddressLimit = "ulimit -v 4000000; ";
#endif
CliRun run_limited_cli(const TempDir& dir, const std::string& args) {
    const int status = run_command("bash -c '" + std::string(kAddressLimit) + "timeout 20 " + std::string(VITVIZ_CLI) +
                                   " " + args + "' > " + dir.path("out.txt") + " 2> " + dir.path("err.txt"));
    return {status, read_file_text(dir.path("out.txt")), read_file_text(dir.path("err.txt"))};
}

// A tiny checkpoint whose final norm and head are finite but so large that
// the logits overflow: its class probabilities come out NaN.
void write_overflowing_checkpoint(const std::string& dir) {
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    for (float& w : tensor_named(tensors, "norm.weight").values) w = 3e38f;
    for (float& w : tensor_named(tensors, "head.weight").values) w = 1e10f;
    write_checkpoint(dir, tensors, tiny_timm_config());
}

}  // namespace

TEST_CASE("the machine's thread count is at least 1 and --threads above it is refused") {
    const int cores = vit::machine_threads();
    CHECK(cores >= 1);
    CHECK(vit::parse_threads("--threads", std::to_string(cores)) == cores);
    CHECK_THROWS_WITH(vit::parse_threads("--threads", std::to_string(cores + 1)),
                      Contains("--threads (this machine has " + std::to_string(cores)) &&
                          Contains("expected a whole number from 1 to " + std::to_string(cores)));
}

TEST_CASE("the CLI refuses more threads than cores promptly under an address-space limit") {
    if (!std::filesystem::exists(VITVIZ_CLI)) return;  // not built in this configuration
    TempDir dir;
    const std::string too_many = std::to_string(std::max(64, vit::machine_threads() + 1));
    for (const std::string& args :
         {"--threads " + too_many, "--train digits --out " + dir.path("t") + " --threads " + too_many}) {
        INFO("vitviz-cli " << args);
        const CliRun r = run_limited_cli(dir, args);
        CHECK(r.status == 1);  // 124 would be the hang
        CHECK_THAT(r.err, Contains("vitviz-cli: --threads (this machine has ") && Contains("got '" + too_many + "'"));
    }
    CHECK(run_limited_cli(dir, "--threads 1").status == 0);  // the limit itself leaves room for a pass
}

TEST_CASE("the CLI's counts are bounded: a benchmark's runs and training's epochs and batch") {
    if (!std::filesystem::exists(VITVIZ_CLI)) return;  // not built in this configuration
    TempDir dir;
    const std::string train = "--train digits --out " + dir.path("t");
    const std::pair<std::string, std::string> cases[] = {
        {"--bench 10001", "--bench: expected a whole number from 1 to 10000, got '10001'"},
        {train + " --epochs 2147483647", "--epochs: expected a whole number from 1 to 1000, got '2147483647'"},
        {train + " --batch 100000", "--batch: expected a whole number from 1 to 4096, got '100000'"}};
    for (const auto& [args, said] : cases) {
        INFO("vitviz-cli " << args);
        const CliRun r = run_limited_cli(dir, args);
        CHECK(r.status == 1);
        CHECK_THAT(r.err, Contains(said));
    }
}

TEST_CASE("a temperature below the smallest is refused, and the smallest keeps attention finite") {
    if (std::filesystem::exists(VITVIZ_CLI)) {
        TempDir dir;
        const CliRun r = run_limited_cli(dir, "--model digits --temperature 1.2e-38");
        CHECK(r.status == 1);
        CHECK_THAT(r.err, Contains("--temperature '1.2e-38': temperature: 1.2e-38 is below the smallest, 1e-06"));
        CHECK(run_limited_cli(dir, "--model digits --temperature 1e-6").status == 0);
    }
    // Scores ±1e38 are finite, but divided by τ = 1e-6 they overflow: shifted by the row's max first they do not.
    vit::Tensor q({1, 2, 1}), k({1, 2, 1}), v({1, 2, 1}), scores({1, 2, 2}), attn({1, 2, 2}), context({2, 1});
    q.data = {1e19f, -1e19f};
    k.data = {1e19f, -1e19f};
    v.data = {1.f, 2.f};
    vit::attention(q, k, v, scores, attn, context, vit::kMinTemperature);
    // 0 natively; the WebAssembly build's exp leaves a value below 1e-37 (not exactly 0) there.
    for (size_t i = 0; i < 4; ++i) CHECK(attn.data[i] == Approx(i % 3 == 0 ? 1.f : 0.f).margin(1e-37));
    CHECK(context.data == vit::FloatStorage{1.f, 2.f});
}

TEST_CASE("an answer holding NaN or Inf is named, not printed") {
    const float fine[] = {0.25f, 0.75f};
    const float bad[] = {std::nanf(""), 0.5f, std::numeric_limits<float>::infinity()};
    CHECK(vit::nonfinite_answer("class probabilities", fine, 2).empty());
    CHECK_THAT(vit::nonfinite_answer("class probabilities", bad, 3),
               Equals("the pass produced NaN: 2 of the 3 class probabilities are NaN or infinite"));
    if (!std::filesystem::exists(VITVIZ_CLI)) return;
    TempDir dir;
    write_overflowing_checkpoint(dir.path("huge"));
    write_file(dir.path("image.png"), png16_bytes(8, 8, 1, std::vector<uint16_t>(64, 1000)));
    const std::string model = "--model " + dir.path("huge") + " --image " + dir.path("image.png");
    for (const char* extra : {"", " --logit-lens", " --occlusion-map"}) {
        INFO("vitviz-cli " << model << extra);
        const CliRun r = run_limited_cli(dir, model + extra);
        CHECK(r.status == 1);
        CHECK(r.out.find("nan") == std::string::npos);
        CHECK_THAT(r.err,
                   Contains("vitviz-cli: the pass produced NaN: ") && Contains("(--allow-nonfinite prints it anyway)"));
    }
    const CliRun allowed = run_limited_cli(dir, model + " --allow-nonfinite");
    CHECK(allowed.status == 0);
    CHECK_THAT(allowed.err, Contains("vitviz-cli: warning: the pass produced NaN: 3 of the 3 class probabilities"));
}
