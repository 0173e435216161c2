// The kinds of user-facing failure; each ends the command with exit status 2. Any other
// exception is a bug (exit status 3).
#pragma once

#include <stdexcept>

namespace memwall {

// Bad command-line usage: unknown family, malformed axis value, ...
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Bad input loaded from a file: foreign or newer database, malformed data file, ...
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The machine refused: a read-only file or directory, a full disk, a database locked or
// damaged, a directory where a file belongs, ... The message says what and where.
struct EnvironmentError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace memwall
