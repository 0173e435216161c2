// memwall with the built-in kernels and the test-only faults family.
#include "cli/run_cli.hpp"
#include "faults_family.hpp"
#include "kernels/register_builtin.hpp"

int main(int argc, char** argv) {
    return memwall::run_cli(argc, argv, [](memwall::Catalogue& c) {
        memwall::register_builtin_kernels(c);
        memwall::test::register_faults(c);
    });
}
