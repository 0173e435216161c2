// main of a program memwall_add_benchmark builds: every memwall command over its benchmarks.
#include "cli/run_cli.hpp"
#include "kernels/kit/bench_family.hpp"

int main(int argc, char** argv) { return memwall::run_cli(argc, argv, memwall::kit::register_benches); }
