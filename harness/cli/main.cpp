#include "harness/cli/app.hpp"

int main(int argc, char** argv) { return memwall::cli::run_cli(argc, argv); }
