#include "core/input_file.hpp"

#include <sys/stat.h>

#include "core/errors.hpp"

namespace memwall {

void refuse_special_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return;
    const char* kind = S_ISFIFO(st.st_mode)   ? "a FIFO (named pipe)"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    throw InputError(path + ": is " + std::string(kind) + ", not a regular file");
}

}  // namespace memwall
