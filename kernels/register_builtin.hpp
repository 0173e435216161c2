// The explicit catalogue of memwall's built-in kernel families.
#pragma once

namespace memwall {

class Catalogue;

// Adds every built-in family (kernels/<family>/register*.cpp); the memwall executable passes it
// to run_cli.
void register_builtin_kernels(Catalogue& c);

}  // namespace memwall
