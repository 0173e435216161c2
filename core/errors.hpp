// The kinds of user-facing failure; each ends the command with exit status 2, except
// Interrupted (130). Any other exception is a bug (exit status 3).
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

// An interrupt (Ctrl-C, SIGTERM, SIGHUP) cut short the work in flight: a case or trial whose
// worker the signal killed, or the planning of a sweep. What was complete is kept; the work in
// flight is not stored, so that `run --resume` measures it.
struct Interrupted : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace memwall
