// memwall's command line as a function, so that a program of one's own kernels is three lines:
//   int main(int argc, char** argv) { return memwall::run_cli(argc, argv, register_my_kernels); }
// and gets every command of `memwall --help` (cli/app.hpp's add_commands) for them.
#pragma once

#include <functional>

namespace memwall {

class Catalogue;

// Registers the kernels with `register_kernels`, parses the command line and runs it; returns
// the exit status: 0 success, 1 a case failed or was wrong (or compare/ci found a regression),
// 2 bad usage or input, 3 an internal error (a bug, said in one line), 130 interrupted.
int run_cli(int argc, char** argv, const std::function<void(Catalogue&)>& register_kernels);

}  // namespace memwall
