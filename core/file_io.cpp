// Whole-file reads with a size cap, and read-only memory maps (POSIX mmap).
#include "file_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "error.h"

namespace vit {

static Error open_error(const std::string& path, int err) {
    std::string reason = std::strerror(err);
    for (char& c : reason) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return Error("cannot open '" + path + "': " + reason);
}

// An open descriptor of a regular file and its size; closed on destruction.
struct OpenFile {
    int fd = -1;
    size_t size = 0;

    explicit OpenFile(const std::string& path) {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw open_error(path, errno);
        struct stat st {};
        if (::fstat(fd, &st) != 0) {
            const int err = errno;
            ::close(fd);
            throw open_error(path, err);
        }
        if (!S_ISREG(st.st_mode)) {
            ::close(fd);
            throw open_error(path, S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
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
