# Project-wide compile settings. The warnings (and -Werror in CI) are for memwall's own sources:
# set on the directory tree. memwall_settings carries what anyone compiling against memwall's
# headers needs as well (the include directories and the ISA, so inline code such as kit/simd.hpp
# is the same on both sides); it is exported with the package. The ISA is x86-64-v3 (AVX2 + FMA),
# memwall's floor: a build runs on any such CPU, and the kernels add their AVX-512 path
# (kit/kernel_isa.hpp). MEMWALL_NATIVE builds for this CPU alone; the avx2 path then may use its
# wider instructions too.
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wall> $<$<COMPILE_LANGUAGE:CXX>:-Wextra>
  $<$<COMPILE_LANGUAGE:CXX>:-Wpedantic> $<$<COMPILE_LANGUAGE:CXX>:-Wshadow> $<$<COMPILE_LANGUAGE:CXX>:-Wconversion>
  $<$<COMPILE_LANGUAGE:CXX>:-Wno-sign-conversion>
  $<$<COMPILE_LANGUAGE:CXX>:-Wno-missing-field-initializers>)  # designated initializers may omit members
# GCC 12 reports false -Wrestrict errors on std::string concatenation at -O3 (GCC PR 105329).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
endif()
if(MEMWALL_WERROR)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()

add_library(memwall_settings INTERFACE)
target_include_directories(memwall_settings INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}> $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:include/memwall> $<INSTALL_INTERFACE:include>)
if(MEMWALL_NATIVE)
  target_compile_options(memwall_settings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
else()
  target_compile_options(memwall_settings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=x86-64-v3>)
endif()
