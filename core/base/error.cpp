// The handled exception as one line (error.h).
#include "base/error.h"

#include <exception>
#include <filesystem>
#include <new>

namespace vit {

std::string failure_message() {
    try {
        throw;
    } catch (const Error& e) {
        return e.what();
    } catch (const std::bad_alloc&) {
        return "out of memory";
    } catch (const std::filesystem::filesystem_error& e) {
        if (e.path1().empty()) return e.code().message();
        return "'" + e.path1().string() + "': " + e.code().message();
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an unexpected failure";
    }
}

}  // namespace vit
