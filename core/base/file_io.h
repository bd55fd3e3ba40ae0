// Reading files the loaders need: whole small files with a size cap (images,
// JSON, .npy) and read-only memory maps (safetensors, read once without a copy).
// Only regular files are read: a FIFO, device or folder is refused before it
// is opened (opening a FIFO blocks until a writer comes). Every failure is a
// vit::Error of the form "cannot open 'PATH': REASON".
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vit {

struct Error;

// "cannot open 'PATH': REASON" for an errno value (ELOOP says "symlink loop").
Error open_error(const std::string& path, int err);

// The whole file; refuses files larger than `max_bytes` before allocating.
std::vector<uint8_t> read_file(const std::string& path, size_t max_bytes);

// A read-only view of a whole file, unmapped on destruction.
class MappedFile {
public:
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }

private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace vit
