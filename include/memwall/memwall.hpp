// memwall's public API for kernels outside memwall: the catalogue a family registers into, the
// family kit it builds on, and run_cli, which gives a program of one's own every memwall command.
// With the installed package: find_package(memwall), link memwall::harness, and
//   #include <memwall/memwall.hpp>
// docs/adding-a-family.md walks through a family; examples/custom-family is a whole project.
#pragma once

#include "cli/run_cli.hpp"
#include "core/catalogue.hpp"
#include "core/errors.hpp"
#include "kernels/kit/cpu_instance.hpp"
#include "kernels/kit/cuda_variants.hpp"
#include "kernels/kit/device_case.hpp"
#include "kernels/kit/placed_buffer.hpp"
#include "kernels/kit/simd.hpp"
#include "metrics/byte_model.hpp"
