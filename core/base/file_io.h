// Reading and writing files: whole small files read with a size cap (images,
// JSON, .npy), read-only memory maps (safetensors, read once without a copy),
// and whole files written with every step checked (exports, dumps, checkpoints,
// lessons). Only regular files are read or written: a FIFO, device or folder is
// refused before it is opened (opening a FIFO blocks until the other end comes).
// Every failure is a vit::Error "cannot open 'PATH': REASON" for a read and
// "cannot write [WHAT ]'PATH': REASON" for a write.
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

// What `path` is when it exists and is not a regular file ("a folder", "a FIFO", "a socket",
// "a device"); "" when it is a regular file or does not exist.
std::string non_regular_kind(const std::string& path);

// Bytes to write, one piece of a file.
struct ByteSpan {
    const void* data;
    size_t size;
};

// Writes `parts` one after the other as the whole file `path` (created or truncated), checking
// the open, every write and the close; a failed write removes the partial file. `what` names
// the file in the message ("the lesson": "cannot write the lesson 'PATH': no space left on device").
void write_whole_file(const std::string& path, const std::vector<ByteSpan>& parts, const std::string& what = "");
void write_whole_file(const std::string& path, const std::string& text, const std::string& what = "");

// Creates the folder `dir` and its parents unless they exist; throws
// "cannot create the folder 'DIR': REASON" when it cannot, or when `dir` is a file.
void make_folder(const std::string& dir);

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
