// Hostile places to write: a FIFO, a device or a folder where a file should go
// is refused before it is opened (opening a FIFO waits for a reader); a write
// that fails midway (a full disk, here the file-size limit) is one error
// naming the file and leaves no partial file; the CLI says it in one line and
// exits 1. Each FIFO case holds a HangGuard, so a regression fails, not hangs.
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <new>

#include "hang_guard.h"
#include "base/error.h"
#include "base/file_io.h"
#include "formats/model_writer.h"
#include "formats/npy.h"
#include "helpers_loaders.h"
#include "loading/toy_model.h"

using namespace vit_test;
using Catch::Matchers::Contains;

namespace {

// The message `write` throws in a child process whose files may grow to `max_bytes` at most
// (writes past it fail with EFBIG, as on a full disk); "no error" when it throws nothing.
template <typename Write>
std::string error_under_size_limit(rlim_t max_bytes, Write write) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::close(fds[0]);
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{max_bytes, max_bytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        std::string message = "no error";
        try {
            write();
        } catch (const std::exception& e) {
            message = e.what();
        }
        (void)!::write(fds[1], message.data(), message.size());
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string message;
    char buffer[256];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, static_cast<size_t>(n));
    ::close(fds[0]);
    ::waitpid(child, nullptr, 0);
    return message;
}

}  // namespace

TEST_CASE("a FIFO, a folder or a device where a file is to be written is refused without opening it", "[os]") {
    TempDir dir;
    REQUIRE(::mkfifo(dir.path("fifo.npy").c_str(), 0600) == 0);
    std::filesystem::create_directory(dir.path("folder.npy"));
    const vit::Tensor t({2, 2});
    HangGuard guard;
    CHECK_THROWS_WITH(vit::write_npy(dir.path("fifo.npy"), t),
                      "cannot write '" + dir.path("fifo.npy") + "': not a regular file (a FIFO)");
    CHECK_THROWS_WITH(vit::write_npy(dir.path("folder.npy"), t),
                      "cannot write '" + dir.path("folder.npy") + "': not a regular file (a folder)");
    CHECK_THROWS_WITH(vit::write_whole_file("/dev/null", "x", "the lesson"),
                      "cannot write the lesson '/dev/null': not a regular file (a device)");
    CHECK_THROWS_WITH(vit::write_whole_file(dir.path("no/such/x.json"), "x"),
                      "cannot write '" + dir.path("no/such/x.json") + "': no such file or directory");
}

TEST_CASE("a write that fails midway names the file and leaves no partial file behind", "[os]") {
    TempDir dir;
    const std::string path = dir.path("big.npy");
    const std::string error = error_under_size_limit(1000, [&] { vit::write_npy(path, vit::Tensor({100, 100})); });
    CHECK(error == "cannot write '" + path + "': file too large");
    CHECK_FALSE(std::filesystem::exists(path));
    CHECK(error_under_size_limit(1000, [&] { vit::write_npy(path, vit::Tensor({4})); }) == "no error");
}

TEST_CASE("a checkpoint that cannot be saved names the file that failed", "[os]") {
    TempDir dir;
    const vit::Model model = vit::make_toy_model();
    const std::string out = dir.path("out");
    CHECK(error_under_size_limit(64, [&] { vit::save_checkpoint(out, model); }) ==
          "cannot write '" + out + "/model.safetensors': file too large");
    std::filesystem::create_directories(dir.path("out/config.json"));
    CHECK_THROWS_WITH(vit::save_checkpoint(out, model),
                      "cannot write '" + out + "/config.json': not a regular file (a folder)");
    vit::write_whole_file(dir.path("file"), "");
    CHECK_THROWS_WITH(vit::save_checkpoint(dir.path("file"), model),
                      Contains("cannot create the folder '" + dir.path("file") + "'"));
}

TEST_CASE("vitviz-cli --dump onto a FIFO, an empty path, a full disk or a full standard output: one line, exit 1",
          "[process]") {
    TempDir dir;
    std::filesystem::create_directory(dir.path("dump"));
    REQUIRE(::mkfifo(dir.path("dump/input.npy").c_str(), 0600) == 0);
    check_cli_refuses(dir, "--model toy-4x4 --dump " + dir.path("dump"),
                      "cannot write '" + dir.path("dump/input.npy") + "': not a regular file (a FIFO)");
    check_cli_refuses(dir, "--model toy-4x4 --dump ''", "--dump: expected a path, got an empty one");
    check_cli_refuses(dir, "--model ''", "--model: expected a path, got an empty one");
    check_cli_refuses(dir, "--model toy-4x4 --image ''", "--image: expected a path, got an empty one");
    // sh counts ulimit -f in 512-byte blocks: the digits model's input (784 floats) does not fit in 1024 bytes.
    check_cli_refuses(dir, "--model digits --dump " + dir.path("full"),
                      "cannot write '" + dir.path("full/input.npy") + "': file too large",
                      "trap '' XFSZ; ulimit -f 2; ");
    CHECK_FALSE(std::filesystem::exists(dir.path("full/input.npy")));
    const int status =
        run_command("timeout 20 " + std::string(VITVIZ_CLI) + " --model toy-4x4 > /dev/full 2> " + dir.path("err.txt"));
    CHECK(status == 1);
    CHECK_THAT(read_file_text(dir.path("err.txt")), Contains("vitviz-cli: cannot write the output"));
}

TEST_CASE("failure_message says any exception in one line, with the file a filesystem error names") {
    const auto message_of = [](auto thrown) {
        try {
            throw thrown;
        } catch (...) {
            return vit::failure_message();
        }
    };
    CHECK(message_of(vit::Error("x.png: bad")) == "x.png: bad");
    CHECK(message_of(std::bad_alloc()) == "out of memory");
    CHECK(message_of(std::filesystem::filesystem_error("mkdir", "/a/b",
                                                       std::make_error_code(std::errc::read_only_file_system))) ==
          "'/a/b': Read-only file system");
    CHECK(message_of(42) == "an unexpected failure");
}
