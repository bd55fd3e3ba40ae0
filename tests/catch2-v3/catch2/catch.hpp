// Catch2 2's <catch2/catch.hpp> over Catch2 3 (Debian 13 packages Catch2 3):
// only on the include path when tests/CMakeLists.txt finds Catch2 3. It
// gives the names the tests use from Catch2 2: the global Approx and
// Catch::Detail::Approx, Catch::X for the string matchers, and
// Catch::Matchers::Contains on strings (ContainsSubstring in Catch2 3, whose
// own Contains, for ranges, these overloads win over for strings).
#pragma once
#include <catch2/catch_all.hpp>
#include <cstddef>
#include <string>

namespace Catch {
namespace Matchers {
inline StringContainsMatcher Contains(std::string const& s) { return ContainsSubstring(s); }
inline StringContainsMatcher Contains(std::string& s) { return ContainsSubstring(s); }
inline StringContainsMatcher Contains(std::string&& s) { return ContainsSubstring(s); }
inline StringContainsMatcher Contains(char const* s) { return ContainsSubstring(s); }
template <std::size_t N> StringContainsMatcher Contains(char const (&s)[N]) { return ContainsSubstring(s); }
}  // namespace Matchers
using Matchers::Contains;
using Matchers::EndsWith;
using Matchers::Equals;
using Matchers::StartsWith;
namespace Detail {
using Catch::Approx;
}
}  // namespace Catch
using Catch::Approx;
