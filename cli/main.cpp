#include "cli/run_cli.hpp"
#include "kernels/register_builtin.hpp"

int main(int argc, char** argv) { return memwall::run_cli(argc, argv, memwall::register_builtin_kernels); }
