// Files a user names as input (--db, spgemm's matrix=PATH, a suite, tune --replay): a FIFO or a
// terminal would block the read with no message, a character device reads without end (/dev/zero)
// or as empty and swallows writes (/dev/null, where SQLite would then create /dev/null-journal).
#pragma once

#include <string>

namespace memwall {

// Throws InputError "PATH: is a FIFO (named pipe), not a regular file" (a character device, a
// block device, a socket), following symbolic links. A regular file, a directory and a path
// that does not exist pass: each caller has its own words for those.
void refuse_special_file(const std::string& path);

}  // namespace memwall
