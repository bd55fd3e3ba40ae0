// The one number parser (core/base/parse.h): whole-string numbers within
// bounds, finite floats, number lists with ranges bounded before they are
// expanded, and messages of one form that quote a bad value only in part.
#include <catch2/catch.hpp>

#include <string>

#include "base/bounds.h"
#include "base/error.h"
#include "base/parse.h"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

TEST_CASE("parse_int takes a whole number within its bounds and names the flag otherwise", "[parse]") {
    CHECK(vit::parse_int("--threads", "8", 1, 64) == 8);
    CHECK(vit::parse_int("--threads", "1", 1, 64) == 1);
    CHECK(vit::parse_int("--threads", "64", 1, 64) == 64);
    CHECK(vit::parse_int("--offset", "-3", -5, 5) == -3);
    CHECK_THROWS_WITH(vit::parse_int("--threads", "x", 1, 64),
                      Equals("--threads: expected a whole number from 1 to 64, got 'x'"));
    CHECK_THROWS_WITH(vit::parse_int("--threads", "65", 1, 64), Contains("from 1 to 64, got '65'"));
    CHECK_THROWS_WITH(vit::parse_int("--threads", "0", 1, 64), Contains("got '0'"));
    CHECK_THROWS_WITH(vit::parse_int("--epochs", "0", 1),
                      Equals("--epochs: expected a whole number of at least 1, got '0'"));
}

TEST_CASE("parse_int refuses garbage, partial numbers and overflow", "[parse]") {
    for (const std::string bad : {"", " 3", "3 ", "+3", "3x", "0x10", "1e3", "2.5", "-", "--1", "-0",
                                  "99999999999999999999", "2147483648", "-2147483649"}) {
        INFO("'" << bad << "'");
        CHECK_FALSE(vit::to_int(bad, 0, 2147483647));
        CHECK_THROWS_AS(vit::parse_int("--top", bad, 0), vit::Error);
    }
    CHECK(vit::to_int("2147483647", 0, 2147483647) == 2147483647);
    CHECK(vit::to_int("007", 0, 10) == 7);
}

TEST_CASE("parse_float takes finite floats only, above its bound", "[parse]") {
    CHECK(vit::parse_float("--lr", "0.001", 0.0f) == Approx(0.001f));
    CHECK(vit::parse_float("--temperature", "-2.5") == -2.5f);
    CHECK(vit::parse_float("--lr", "1e-3", 0.0f) == Approx(0.001f));
    CHECK_THROWS_WITH(vit::parse_float("--lr", "0", 0.0f), Equals("--lr: expected a number above 0, got '0'"));
    // Above 0 as written, but 0 as a float (found by tests/fuzz/fuzz_flags.cpp).
    CHECK_THROWS_WITH(vit::parse_float("--lr", "1e-63", 0.0f), Equals("--lr: expected a number above 0, got '1e-63'"));
    CHECK_THROWS_WITH(vit::parse_float("--temperature", "warm"),
                      Equals("--temperature: expected a number, got 'warm'"));
    CHECK_THROWS_WITH(
        vit::parse_float("--temperature", "-1e39"),
        Equals("--temperature: expected a number of at most 3.4e+38 in size (a float's range), got '-1e39'"));
    for (const std::string bad : {"", "inf", "-inf", "nan", "1e39", "1e400", "1.5x", " 1", "0x1p3"}) {
        INFO("'" << bad << "'");
        CHECK_THROWS_AS(vit::parse_float("--temperature", bad), vit::Error);
    }
}

TEST_CASE("parse_int_list expands numbers and ranges within bounds", "[parse]") {
    CHECK(vit::parse_int_list("--mask-patches", "3,5,10-12", 0, 15) == std::vector<int>{3, 5, 10, 11, 12});
    CHECK(vit::parse_int_list("--mask-patches", "7", 0, 15) == std::vector<int>{7});
    CHECK_THROWS_WITH(vit::parse_int_list("--mask-patches", "3,x", 0, 15),
                      Equals("--mask-patches: expected a whole number from 0 to 15, got 'x'"));
    CHECK_THROWS_WITH(vit::parse_int_list("--mask-patches", "12-10", 0, 15),
                      Equals("--mask-patches: expected a range from low to high, got '12-10'"));
    CHECK_THROWS_WITH(vit::parse_int_list("--mask-patches", "3,,4", 0, 15), Contains("got ''"));
    CHECK_THROWS_WITH(vit::parse_int_list("--mask-patches", "-1", 0, 15), Contains("got '-1'"));
    CHECK_THROWS_WITH(vit::parse_int_list("--mask-patches", "0-16", 0, 15), Contains("got '16'"));
    CHECK_THROWS_WITH(vit::parse_int_list("--mask-patches", "1-2-3", 0, 15), Contains("got '2-3'"));
}

TEST_CASE("a huge range is refused before it is expanded", "[parse]") {
    // Two billion numbers would take 8 GB: refused by counting, before any allocation.
    CHECK_THROWS_WITH(
        vit::parse_int_list("--drop-tokens", "0-2147483647", 0, 2147483647),
        Contains("at most " + std::to_string(vit::kMaxListNumbers) + " numbers in all, got '0-2147483647'"));
    // The count is over the whole list, not each range.
    const std::string half = "0-" + std::to_string(vit::kMaxListNumbers / 2);
    CHECK_THROWS_WITH(vit::parse_int_list("--drop-tokens", half + "," + half, 0, 2147483647),
                      Contains("numbers in all"));
    CHECK(vit::parse_int_list("--drop-tokens", half, 0, 2147483647).size() == vit::kMaxListNumbers / 2 + 1);
}

TEST_CASE("parse_pair_list reads BLOCK:HEAD pairs", "[parse]") {
    using Pairs = std::vector<std::pair<int, int>>;
    const std::string form = "BLOCK:HEAD pairs such as 0:1,3:2";
    CHECK(vit::parse_pair_list("--ablate-heads", "0:1,3:2", 0, 11, form) == Pairs{{0, 1}, {3, 2}});
    CHECK_THROWS_WITH(vit::parse_pair_list("--ablate-heads", "0:1,2", 0, 11, form),
                      Equals("--ablate-heads: expected BLOCK:HEAD pairs such as 0:1,3:2, got '2'"));
    CHECK_THROWS_WITH(vit::parse_pair_list("--ablate-heads", "0:x", 0, 11, form), Contains("from 0 to 11, got 'x'"));
    CHECK_THROWS_WITH(vit::parse_pair_list("--ablate-heads", "0:1:2", 0, 11, form), Contains("got '1:2'"));
}

TEST_CASE("a long bad value is quoted only in part", "[parse]") {
    const std::string long_value(10000, '7');
    for (const auto& parse : {+[](const std::string& v) { vit::parse_int("--top", v, 0); },
                              +[](const std::string& v) { vit::parse_float("--lr", v, 0.0f); },
                              +[](const std::string& v) { vit::parse_int_list("--mask-patches", v + "x", 0, 15); }}) {
        try {
            parse(long_value);
            FAIL("no error");
        } catch (const vit::Error& e) {
            const std::string message = e.what();
            CHECK(message.size() < vit::kMaxQuotedChars + 80);
            CHECK_THAT(message, Contains(std::string(vit::kMaxQuotedChars - 1, '7') + "…'"));
        }
    }
}

TEST_CASE("parse_path_list takes comma-separated paths, none empty, at most its bound", "[parse]") {
    CHECK(vit::parse_path_list("--pca-images", "a.png,dir/b.jpg", 3) == std::vector<std::string>{"a.png", "dir/b.jpg"});
    CHECK_THROWS_WITH(vit::parse_path_list("--pca-images", "a.png,,b.png", 3),
                      Equals("--pca-images: expected a path, got an empty one"));
    CHECK_THROWS_WITH(vit::parse_path_list("--pca-images", "a,b,c,d", 3),
                      Equals("--pca-images: expected at most 3 paths, got 'a,b,c,d'"));
}

TEST_CASE("the backend is cpu or gpu, with the same message for vitviz-cli and vitviz", "[parse]") {
    CHECK_FALSE(vit::parse_backend_is_gpu("cpu"));
    CHECK(vit::parse_backend_is_gpu("gpu"));
    CHECK_THROWS_WITH(vit::parse_backend_is_gpu("tpu"), Equals("--backend: expected cpu or gpu, got 'tpu'"));
    CHECK_THROWS_WITH(vit::parse_choice("--screen", "x", {"stage", "attention", "overview"}),
                      Equals("--screen: expected stage, attention or overview, got 'x'"));
}
