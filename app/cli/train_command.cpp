// The CLI's training command (train_command.h).
#include "train_command.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "base/error.h"
#include "formats/model_writer.h"
#include "tensor/threads.h"
#include "base/timing.h"
#include "train/training.h"

namespace vit::cli {

namespace {

const char* const kTrainUsage =
    "usage: vitviz-cli --train digits --out DIR [--epochs E] [--batch B] [--lr LR] [--seed S] [--threads T]\n";

struct TrainRequest {
    std::string out;
    TrainOptions options;
    int threads = 0;
};

// A whole number (at least `min`) or, with `real`, a positive finite number.
double parse_value(const std::string& flag, const std::string& value, double min, bool real) {
    char* end = nullptr;
    errno = 0;
    const double x = real ? std::strtod(value.c_str(), &end) : static_cast<double>(std::strtoll(value.c_str(), &end, 10));
    const bool ok = !value.empty() && end == value.c_str() + value.size() && errno == 0 && std::isfinite(x) &&
                    (real ? x > min : x >= min) && x <= 2147483647.0;
    if (!ok)
        throw Error(flag + " needs " + (real ? "a number above " : "a whole number of at least ") +
                    std::to_string(static_cast<int>(min)) + ", got '" + value + "'");
    return x;
}

TrainRequest parse_request(int argc, char** argv) {
    TrainRequest r;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) throw Error("unknown or incomplete option '" + flag + "'\n" + kTrainUsage);
        const std::string value = argv[++i];
        if (flag == "--train" && value != "digits")
            throw Error("--train can only train 'digits' (the shipped digit set), got '" + value + "'");
        else if (flag == "--train") continue;
        else if (flag == "--out") r.out = value;
        else if (flag == "--epochs") r.options.epochs = static_cast<int>(parse_value(flag, value, 1, false));
        else if (flag == "--batch") r.options.batch = static_cast<int>(parse_value(flag, value, 1, false));
        else if (flag == "--lr") r.options.lr = static_cast<float>(parse_value(flag, value, 0, true));
        else if (flag == "--seed") r.options.seed = static_cast<uint32_t>(parse_value(flag, value, 0, false));
        else if (flag == "--threads") r.threads = static_cast<int>(parse_value(flag, value, 1, false));
        else throw Error("unknown option '" + flag + "' for --train\n" + kTrainUsage);
    }
    if (r.out.empty()) throw Error("--train needs --out DIR (where the trained model is saved)\n" + std::string(kTrainUsage));
    return r;
}

// Fails before training when `dir` cannot hold the checkpoint.
void check_writable(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::filesystem::path probe = std::filesystem::path(dir) / ".vitviz-write-test";
    std::FILE* f = ec ? nullptr : std::fopen(probe.string().c_str(), "wb");
    if (!f) throw Error("cannot write to the output folder '" + dir + "': " + (ec ? ec.message() : std::strerror(errno)));
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
