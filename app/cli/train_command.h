// `vitviz-cli --train digits --out DIR [--epochs E] [--batch B] [--lr LR]
// [--seed S] [--threads T]`: trains a ViT of the digits model's shape from a
// random start on the shipped digits (core/train/training.h), printing one line per
// epoch, and saves DIR/model.safetensors and DIR/config.json.
#pragma once

namespace vit::cli {

// Whether the command line asks for training (has --train).
bool wants_training(int argc, char** argv);
// Runs it; throws vit::Error (one line) for every bad value. Returns 0.
int run_training(int argc, char** argv);

}  // namespace vit::cli
