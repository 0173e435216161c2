# cmake -DROOT=<source tree> [-DCLANG_FORMAT=clang-format] -P CheckFormat.cmake
#
# One format for every C++ and CUDA source, so a reader meets one hand: .clang-format at the
# root, applied by clang-format 14 (Debian bookworm's, which scripts/bootstrap.sh installs; other
# versions break a few lines differently). Checks every *.cpp, *.hpp, *.cu and *.cuh under ROOT
# outside build trees and test data, and fails naming each file that `clang-format -i` would change.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "CheckFormat: pass -DROOT=<source tree>")
endif()
if(NOT CLANG_FORMAT)
  find_program(CLANG_FORMAT NAMES clang-format-14 clang-format)
endif()
if(NOT CLANG_FORMAT)
  message(FATAL_ERROR "CheckFormat: clang-format not found (scripts/bootstrap.sh installs it)")
endif()

file(GLOB_RECURSE sources LIST_DIRECTORIES false RELATIVE "${ROOT}"
     "${ROOT}/*.cpp" "${ROOT}/*.hpp" "${ROOT}/*.cu" "${ROOT}/*.cuh")
list(FILTER sources EXCLUDE REGEX "^(build|\\.git|tests/data)/|/build/|^_")

# One call for all of them; --dry-run reports each change as "<path>:<line>:<col>: error: ...".
execute_process(COMMAND "${CLANG_FORMAT}" --style=file --dry-run --Werror ${sources}
                WORKING_DIRECTORY "${ROOT}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE report)
string(REGEX MATCHALL "[^\n]+:[0-9]+:[0-9]+: error:" located "${report}")
set(unformatted "")
foreach(place IN LISTS located)
  string(REGEX REPLACE ":[0-9]+:[0-9]+: error:$" "" source "${place}")
  list(APPEND unformatted "${source}")
endforeach()
list(REMOVE_DUPLICATES unformatted)
if(NOT rc EQUAL 0 AND NOT unformatted)
  message(FATAL_ERROR "CheckFormat: ${CLANG_FORMAT} failed:\n${report}")
endif()

list(LENGTH sources checked)
list(LENGTH unformatted n)
if(n GREATER 0)
  list(JOIN unformatted "\n  " listed)
  message(FATAL_ERROR "CheckFormat: ${n} of ${checked} file(s) not formatted (clang-format -i them):\n  ${listed}")
endif()
message(STATUS "CheckFormat: ${checked} files formatted")
