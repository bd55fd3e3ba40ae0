// Claims about the joint PCA's other images (logic/jobs/joint_passes.h): the
// option --pca-images, which images join the current one (not itself, however
// spelt), each image's block outputs are the Loader's pass bit for bit, a missing
// file stops the job with a message naming it, and a request for other images
// replaces the job under way.
#include <catch2/catch.hpp>

#include "base/assets.h"
#include "logic/jobs/joint_passes.h"
#include "logic/jobs/loader.h"
#include "logic/state/options.h"

using namespace vit::gui;

namespace {

const JointPasses& run_to_end(JointPassJob& job, SlicedWorker& worker) {
    for (int i = 0; i < 10000 && job.busy(); ++i) {
        worker.advance(0);
        job.poll();
    }
    REQUIRE_FALSE(job.busy());
    return *job.poll();
}

}  // namespace

TEST_CASE("the joint PCA takes the chosen images, else the gallery's, without the current one, bounded") {
    const std::vector<std::string> gallery{"a.jpg", "b.jpg", "c.jpg", "d.jpg"};
    CHECK(joint_pca_others("b.jpg", "b.jpg", {}, gallery, 3) == std::vector<std::string>{"a.jpg", "c.jpg", "d.jpg"});
    CHECK(joint_pca_others("./b.jpg", "b.jpg", {}, gallery, 3) == std::vector<std::string>{"a.jpg", "c.jpg", "d.jpg"});
    CHECK(joint_pca_others("", "toy", {}, gallery, 3) == std::vector<std::string>{"a.jpg", "b.jpg", "c.jpg"});
    CHECK(joint_pca_others("", "c.jpg", {}, gallery, 3) == std::vector<std::string>{"a.jpg", "b.jpg", "d.jpg"});
    CHECK(joint_pca_others("a.jpg", "a.jpg", {"x.png", "a.jpg", "x.png"}, gallery, 3) ==
          std::vector<std::string>{"x.png"});
}

TEST_CASE("the option --pca-images takes up to three comma-separated image files that are there") {
    const std::string cat = vit::asset_path("photos/chelsea.jpg"), coffee = vit::asset_path("photos/coffee.jpg");
    REQUIRE(parse_options({}).pca_images.empty());
    REQUIRE(parse_options({"--pca-images", cat + "," + coffee}).pca_images == std::vector<std::string>{cat, coffee});
    REQUIRE_THROWS_WITH(parse_options({"--pca-images", "a.png,"}), "--pca-images: expected a path, got an empty one");
    REQUIRE_THROWS_WITH(parse_options({"--pca-images", "a,b,c,d"}), Catch::Contains("at most 3 paths"));
    REQUIRE_THROWS_WITH(parse_options({"--pca-images", cat + ",/no/such.png"}),
                        "--pca-images: '/no/such.png': no such file");
    const std::string folder = vit::asset_path("photos");
    REQUIRE_THROWS_WITH(parse_options({"--pca-images", folder}),
                        "--pca-images: '" + folder + "' is a folder, not an image file");
}

TEST_CASE("the joint PCA's images run through the model as the Loader runs them, a piece at a time") {
    const std::string cat = vit::asset_path("photos/chelsea.jpg"), coffee = vit::asset_path("photos/coffee.jpg");
    const Loaded first = load_and_run({"digits", cat, 0}, nullptr, "");
    const Loaded second = load_and_run({"digits", coffee, 0}, first.model, "digits");
    auto worker = std::make_shared<SlicedWorker>();
    JointPassJob job(worker);
    CHECK(job.poll() == nullptr);
    job.request(first.model, "digits", {cat, coffee}, 0);
    worker->advance(0);
    REQUIRE(job.poll());
    CHECK_FALSE(job.poll()->complete());  // one piece is far from two passes
    const JointPasses& done = run_to_end(job, *worker);
    REQUIRE(done.complete());
    REQUIRE(done.images.size() == 2);
    CHECK(done.images[0]->name == "chelsea.jpg");
    CHECK(done.images[1]->name == "coffee.jpg");
    const int depth = first.model->config.depth;
    for (int b = 0; b < depth; ++b) {
        const vit::StageRef out{vit::StageKind::Out, b};
        CHECK(done.images[0]->outs[b].data == first.trace->at(out).data);
        CHECK(done.images[1]->outs[b].data == second.trace->at(out).data);
    }
    CHECK(done.images[1]->tokens.patches.size() ==
          vit::patch_tokens(*second.trace, second.model->config).patches.size());

    job.request(first.model, "digits", {cat, coffee}, 0);  // answered already: nothing to do
    CHECK_FALSE(job.busy());
    job.request(first.model, "digits", {coffee, "no/such/image.png"}, 0);
    worker->advance(0);
    job.request(first.model, "digits", {"no/such/image.png"}, 0);  // replaces the job under way
    const JointPasses& failed = run_to_end(job, *worker);
    CHECK(failed.paths == std::vector<std::string>{"no/such/image.png"});
    CHECK(failed.images.empty());
    CHECK_THAT(failed.error, Catch::Contains("no/such/image.png"));
    CHECK(worker->idle());
}
