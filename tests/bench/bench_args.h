// The benchmarks' command lines, read one way: each program names its flags
// once (the usage text is made from the same list), every count is bounded
// (vit::parse_int), `--help` prints the usage and exits 0, and an unknown flag,
// a flag without its value or a bad value is one line on stderr and exit 2.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/parse.h"

namespace vit_bench {

class BenchArgs {
public:
    BenchArgs(std::string program, std::string summary) : program_(std::move(program)), summary_(std::move(summary)) {}

    // `--flag N`: a whole number from `min` to `max`.
    void count(const std::string& flag, int* value, int min, int max, const std::string& help) {
        add(flag, "N", help + "; " + std::to_string(min) + " to " + std::to_string(max),
            [=](const std::string& text) { *value = vit::parse_int(flag, text, min, max); });
    }
    // `--flag A,B,C`: whole numbers from `min` to `max`.
    void counts(const std::string& flag, std::vector<int>* values, int min, int max, const std::string& help) {
        add(flag, "A,B", help, [=](const std::string& text) { *values = vit::parse_int_list(flag, text, min, max); });
    }
    // `--flag` alone: sets `value` true.
    void flag(const std::string& flag, bool* value, const std::string& help) {
        add(flag, "", help, [=](const std::string&) { *value = true; });
    }
    // `--flag TEXT`: any text but an empty one.
    void text(const std::string& flag, std::string* value, const std::string& help) {
        add(flag, "TEXT", help, [=](const std::string& text) { *value = vit::parse_path(flag, text); });
    }

    // Reads argv[1..]; on --help or a mistake it prints and exits (0 or 2).
    void parse(int argc, char** argv) const {
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--help" || arg == "-h") {
                std::fputs(usage().c_str(), stdout);
                std::exit(0);
            }
            const Flag* flag = find(arg);
            if (!flag) fail("unknown option '" + vit::shortened(arg) + "' (--help lists the options)");
            if (flag->value.empty()) {
                flag->set("");
                continue;
            }
            if (i + 1 >= argc) fail(arg + ": expected a value");
            try {
                flag->set(argv[++i]);
            } catch (const vit::Error& e) {
                fail(e.what());
            }
        }
    }

    std::string usage() const {
        std::string text = "usage: " + program_;
        for (const Flag& f : flags_) text += " [" + written(f) + "]";
        text += "\n" + summary_ + "\n";
        for (const Flag& f : flags_) text += "  " + written(f) + "  " + f.help + "\n";
        return text;
    }

private:
    struct Flag {
        std::string name, value, help;
        std::function<void(const std::string&)> set;
    };

    void add(const std::string& name, const std::string& value, const std::string& help,
             std::function<void(const std::string&)> set) {
        flags_.push_back({name, value, help, std::move(set)});
    }
    static std::string written(const Flag& f) { return f.value.empty() ? f.name : f.name + " " + f.value; }
    const Flag* find(const std::string& name) const {
        for (const Flag& f : flags_)
            if (f.name == name) return &f;
        return nullptr;
    }
    [[noreturn]] void fail(const std::string& line) const {
        std::fprintf(stderr, "%s: %s\n", program_.c_str(), line.c_str());
        std::exit(2);
    }

    std::string program_, summary_;
    std::vector<Flag> flags_;
};

}  // namespace vit_bench
