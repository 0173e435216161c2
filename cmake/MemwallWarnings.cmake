# Project-wide compile settings, applied through the memwall_settings interface target.
add_library(memwall_settings INTERFACE)
target_include_directories(memwall_settings INTERFACE ${PROJECT_SOURCE_DIR})
target_compile_options(memwall_settings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wno-missing-field-initializers>)  # designated initializers may omit members
# GCC 12 reports false -Wrestrict errors on std::string concatenation at -O3 (GCC PR 105329).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(memwall_settings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
endif()
if(MEMWALL_WERROR)
  target_compile_options(memwall_settings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
if(MEMWALL_NATIVE)
  target_compile_options(memwall_settings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
endif()
