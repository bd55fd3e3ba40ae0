// The blob lock shared with huggingface_hub (blob_lock.h).
#include "hub/blob_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "base/error.h"
#include "base/file_io.h"

namespace vit {

BlobLock::BlobLock(const std::string& path, const std::function<bool()>& keep_waiting) {
    make_folder(std::filesystem::path(path).parent_path().string());
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error("cannot open the lock file '" + path + "': " + std::strerror(errno));
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        if (error == EWOULDBLOCK || error == EINTR) {
            if (keep_waiting()) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                continue;
            }
            ::close(fd_);
            throw Error("the download was cancelled while another download of the file held '" + path + "'");
        }
        ::close(fd_);
        throw Error("cannot lock '" + path + "': " + std::strerror(error));
    }
}

BlobLock::~BlobLock() {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
}

}  // namespace vit
