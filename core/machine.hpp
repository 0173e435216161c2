// Facts about the machine and the build, recorded with every run.
#pragma once

#include <string>

namespace memwall {

std::string host_name();
// "AMD EPYC 9B14": the CPU model name from /proc/cpuinfo ("unknown CPU" when absent).
std::string cpu_model();
// "AMD EPYC 9B14, 2 threads": the CPU model and the threads kernels use.
std::string cpu_description();
// memwall's own source revision, baked in at build time; empty when unknown.
std::string memwall_git_revision();
std::string memwall_version();

}  // namespace memwall
