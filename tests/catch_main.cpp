// Catch2's main, compiled once for every test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#if CATCH_VERSION_MAJOR >= 3  // Catch2 3 ignores CATCH_CONFIG_MAIN: the main of its Catch2WithMain
int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
#endif
