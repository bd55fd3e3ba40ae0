// Whole-file reads with a size cap, and read-only memory maps (POSIX mmap).
#include "base/file_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "base/error.h"

namespace vit {

Error open_error(const std::string& path, int err) {
    std::string reason = std::strerror(err);
    for (char& c : reason) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (err == ELOOP) reason = "symlink loop (" + reason + ")";
    return Error("cannot open '" + path + "': " + reason);
}

// Throws unless `st` is a regular file's.
static void require_regular(const std::string& path, const struct stat& st) {
    if (S_ISREG(st.st_mode)) return;
    const char* kind = S_ISDIR(st.st_mode)    ? "a folder"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                     : "not a file";
    throw Error("cannot open '" + path + "': not a regular file (" + kind + ")");
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

}  // namespace vit
