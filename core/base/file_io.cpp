// Whole-file reads with a size cap, read-only memory maps (POSIX mmap), and
// checked whole-file writes (file_io.h).
#include "base/file_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/error.h"

namespace vit {

// strerror(err) in lower case, as messages quote it ("no space left on device").
static std::string reason_of(int err) {
    std::string reason = std::strerror(err);
    for (char& c : reason) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (err == ELOOP) reason = "symlink loop (" + reason + ")";
    return reason;
}

Error open_error(const std::string& path, int err) { return Error("cannot open '" + path + "': " + reason_of(err)); }

// What a file that is not regular is; "" for a regular file.
static std::string kind_of(const struct stat& st) {
    if (S_ISREG(st.st_mode)) return "";
    return S_ISDIR(st.st_mode)                          ? "a folder"
           : S_ISFIFO(st.st_mode)                       ? "a FIFO"
           : S_ISSOCK(st.st_mode)                       ? "a socket"
           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                        : "not a file";
}

std::string non_regular_kind(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? kind_of(st) : "";
}

// Throws unless `st` is a regular file's.
static void require_regular(const std::string& path, const struct stat& st) {
    const std::string kind = kind_of(st);
    if (!kind.empty()) throw Error("cannot open '" + path + "': not a regular file (" + kind + ")");
}

// An open descriptor of a regular file and its size; closed on destruction.
struct OpenFile {
    int fd = -1;
    size_t size = 0;

    explicit OpenFile(const std::string& path) {
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) throw open_error(path, errno);
        require_regular(path, st);
        // O_NONBLOCK: should the path become a FIFO after the stat, open() returns instead of waiting.
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) throw open_error(path, errno);
        try {
            if (::fstat(fd, &st) != 0) throw open_error(path, errno);
            require_regular(path, st);
        } catch (...) {
            ::close(fd);
            throw;
        }
        size = static_cast<size_t>(st.st_size);
    }
    ~OpenFile() { ::close(fd); }
    OpenFile(const OpenFile&) = delete;
    OpenFile& operator=(const OpenFile&) = delete;
};

static std::string megabytes(size_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

std::vector<uint8_t> read_file(const std::string& path, size_t max_bytes) {
    OpenFile file(path);
    if (file.size > max_bytes)
        throw Error(path + ": file is " + std::to_string(file.size) + " bytes, over the " + megabytes(max_bytes) +
                    " limit");
    std::vector<uint8_t> bytes(file.size);
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(file.fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw Error(path + ": read failed: " + std::strerror(errno));
        if (n == 0) break;  // the file shrank while we read it
        done += static_cast<size_t>(n);
    }
    bytes.resize(done);
    return bytes;
}

MappedFile::MappedFile(const std::string& path) {
    OpenFile file(path);
    size_ = file.size;
    if (size_ == 0) return;  // mmap refuses empty files; an empty view is what they hold
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (p == MAP_FAILED) throw Error(path + ": cannot map the file: " + std::strerror(errno));
    data_ = static_cast<const uint8_t*>(p);
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

static Error write_error(const std::string& path, const std::string& what, const std::string& reason) {
    return Error("cannot write " + (what.empty() ? "" : what + " ") + "'" + path + "': " + reason);
}

// An open, new or truncated, regular file for writing; a failure closes it and removes it.
struct WrittenFile {
    const std::string& path;
    const std::string& what;
    int fd = -1;

    WrittenFile(const std::string& file, const std::string& what_file) : path(file), what(what_file) {
        const std::string kind = non_regular_kind(path);
        if (!kind.empty()) throw write_error(path, what, "not a regular file (" + kind + ")");
        // O_NONBLOCK: should the path become a FIFO after the stat, open() returns instead of waiting.
        fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0666);
        if (fd < 0) throw write_error(path, what, reason_of(errno));
        struct stat st {};
        if (::fstat(fd, &st) != 0) fail(errno);
        if (!kind_of(st).empty()) {
            ::close(fd);
            throw write_error(path, what, "not a regular file (" + kind_of(st) + ")");
        }
    }
    [[noreturn]] void fail(int err) {
        if (fd >= 0) ::close(fd);
        ::unlink(path.c_str());
        throw write_error(path, what, reason_of(err));
    }
    void write(const ByteSpan& part) {
        const char* at = static_cast<const char*>(part.data);
        size_t left = part.size;
        while (left > 0) {
            const ssize_t n = ::write(fd, at, left);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) fail(errno);
            if (n == 0) fail(ENOSPC);
            at += n, left -= static_cast<size_t>(n);
        }
    }
    void close() {
        const int result = ::close(fd);
        const int err = errno;
        if (result != 0) fd = -1, fail(err);
    }
};

void write_whole_file(const std::string& path, const std::vector<ByteSpan>& parts, const std::string& what) {
    WrittenFile file(path, what);
    for (const ByteSpan& part : parts) file.write(part);
    file.close();
}

void write_whole_file(const std::string& path, const std::string& text, const std::string& what) {
    write_whole_file(path, {ByteSpan{text.data(), text.size()}}, what);
}

void make_folder(const std::string& dir) {
    if (dir.empty()) throw Error("cannot create a folder with an empty name");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error("cannot create the folder '" + dir + "': " + reason_of(ec.value()));
    const std::string kind = non_regular_kind(dir);
    if (kind != "a folder")
        throw Error("cannot create the folder '" + dir + "': " + (kind.empty() ? "a file" : kind) + " is in the way");
}

}  // namespace vit
