// The CLI's training command (train_command.h).
#include "train_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "base/error.h"
#include "base/parse.h"
#include "formats/model_writer.h"
#include "loading/builtin.h"
#include "tensor/threads.h"
#include "pass/timing.h"
#include "train/training.h"

namespace vit::cli {

namespace {

std::string train_usage() {
    return "usage: vitviz-cli --train " + std::string(kDigitsModel) +
           " --out DIR [--epochs E] [--batch B] [--lr LR] [--seed S] [--threads T]\n";
}

struct TrainRequest {
    std::string out;
    TrainOptions options;
    int threads = 0;
};

TrainRequest parse_request(int argc, char** argv) {
    TrainRequest r;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) throw Error("unknown or incomplete option '" + flag + "'\n" + train_usage());
        const std::string value = argv[++i];
        if (flag == "--train" && value != kDigitsModel)
            throw Error("--train can only train '" + std::string(kDigitsModel) + "' (the shipped digit set), got '" +
                        shortened(value) + "'");
        else if (flag == "--train") continue;
        else if (flag == "--out") r.out = parse_path(flag, value);
        else if (flag == "--epochs") r.options.epochs = parse_int(flag, value, 1, kMaxTrainingEpochs);
        else if (flag == "--batch") r.options.batch = parse_int(flag, value, 1, kMaxTrainingBatch);
        else if (flag == "--lr") r.options.lr = parse_float(flag, value, 0.0f);
        else if (flag == "--seed") r.options.seed = static_cast<uint32_t>(parse_int(flag, value, 0));
        else if (flag == "--threads") r.threads = parse_threads(flag, value);
        else throw Error("unknown option '" + flag + "' for --train\n" + train_usage());
    }
    if (r.out.empty()) throw Error("--train needs --out DIR (where the trained model is saved)\n" + train_usage());
    return r;
}

// Fails before training when `dir` cannot hold the checkpoint.
void check_writable(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::filesystem::path probe = std::filesystem::path(dir) / ".vitviz-write-test";
    std::FILE* f = ec ? nullptr : std::fopen(probe.string().c_str(), "wb");
    if (!f)
        throw Error("cannot write to the output folder '" + dir + "': " + (ec ? ec.message() : std::strerror(errno)));
    std::fclose(f);
    std::filesystem::remove(probe, ec);
}

}  // namespace

bool wants_training(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--train") == 0) return true;
    return false;
}

int run_training(int argc, char** argv) {
    const TrainRequest r = parse_request(argc, argv);
    check_writable(r.out);
    set_threads(r.threads);
    const DigitSplit data = load_shipped_digits();
    Trainer trainer(init_model(digits_config(), r.options.seed), data, r.options);
    const Stopwatch clock;
    for (int e = 1; e <= r.options.epochs; ++e) {
        const float loss = trainer.epoch();
        const float accuracy = trainer.held_out_accuracy();
        std::printf("epoch %d loss %.3f held-out %.3f %.1f s\n", e, loss, accuracy, clock.ms() / 1000.0);
        std::fflush(stdout);
    }
    save_checkpoint(r.out, trainer.model());
    std::printf("saved %s/model.safetensors and config.json\n", r.out.c_str());
    return 0;
}

}  // namespace vit::cli
