# cmake -DNM=nm -DOBJECTS="a.o;b.o" -P CheckKernelSymbols.cmake
#
# The AVX-512 compile of a family's CPU kernels (kit/kernel_isa.hpp) may define, for the linker,
# only the kernels' specialisations for Isa::avx512. Any other global or weak definition (an
# inline function or a template instantiated inside the AVX-512 target) is one the linker may
# pick for every caller, the AVX2 path's included, and that path then dies on an AVX2 CPU.
set(bad "")
set(count 0)
foreach(object IN LISTS OBJECTS)
  execute_process(COMMAND ${NM} --defined-only -C ${object} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${object}")
  endif()
  string(REPLACE "\n" ";" lines "${out}")
  foreach(line IN LISTS lines)
    # "ADDRESS TYPE NAME": upper-case types (and u) are global or weak.
    if(NOT line MATCHES "^[0-9a-f]+ ([A-Zu]) (.*)$")
      continue()
    endif()
    set(name "${CMAKE_MATCH_2}")
    if(name MATCHES "\\(memwall::Isa\\)1>")
      math(EXPR count "${count} + 1")
    elseif(NOT name STREQUAL "DW.ref.__gxx_personality_v0")
      string(APPEND bad "\n  ${object}: ${name}")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "AVX-512 kernel objects define symbols other than their kernels:${bad}")
endif()
if(count EQUAL 0)
  message(FATAL_ERROR "no Isa::avx512 kernel found in: ${OBJECTS}")
endif()
message(STATUS "${count} AVX-512 kernels, nothing else defined")
