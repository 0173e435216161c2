// The two kinds of user-facing failure; both end the command with exit status 2.
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

}  // namespace memwall
