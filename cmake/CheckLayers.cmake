# cmake -DROOT=<source tree> -P CheckLayers.cmake
#
# memwall's parts are layers: a part may include the parts of lower rank, never one of its own
# rank or above (docs/architecture.md draws them). Every #include "part/..." of the sources under
# each part is checked; the nested parts (kernels/kit, tuner/live, gui/core, gui/app) are matched
# before their parents. Tests, benchmarks and examples may include anything. All SQL lives in
# results/: no other part includes sqlite3.h or results/sqlite_statement.hpp. Fails listing each
# include that breaks a rule.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "CheckLayers: pass -DROOT=<source tree>")
endif()

set(MEMWALL_LAYERS
  metrics=0 stats=0
  core=1 cuda_emu=1 profiler=1
  results=2 gpu=2
  tuner=3 kernels/kit=3
  kernels=4 harness=4 gui/core=4
  ci=5 tuner/live=5 gui/app=5
  cli=6
  include/memwall=7
)

# The part a path belongs to (the longest matching prefix) and its rank; "" when none.
function(layer_of path out_name out_rank)
  set(best "")
  set(best_rank "")
  foreach(entry IN LISTS MEMWALL_LAYERS)
    string(REPLACE "=" ";" pair "${entry}")
    list(GET pair 0 name)
    list(GET pair 1 rank)
    string(LENGTH "${name}" len)
    string(LENGTH "${best}" best_len)
    string(FIND "${path}" "${name}/" at)
    if(at EQUAL 0 AND len GREATER best_len)
      set(best "${name}")
      set(best_rank "${rank}")
    endif()
  endforeach()
  set(${out_name} "${best}" PARENT_SCOPE)
  set(${out_rank} "${best_rank}" PARENT_SCOPE)
endfunction()

set(files "")
foreach(entry IN LISTS MEMWALL_LAYERS)
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 name)
  if(IS_DIRECTORY "${ROOT}/${name}")
    file(GLOB_RECURSE found RELATIVE "${ROOT}" "${ROOT}/${name}/*.hpp" "${ROOT}/${name}/*.cpp"
         "${ROOT}/${name}/*.cu" "${ROOT}/${name}/*.cuh")
    list(APPEND files ${found})
  endif()
endforeach()
list(REMOVE_DUPLICATES files)
list(SORT files)

set(violations 0)
foreach(file IN LISTS files)
  layer_of("${file}" own own_rank)
  file(STRINGS "${ROOT}/${file}" sql REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](sqlite3\\.h|results/sqlite_statement\\.hpp)[>\"]")
  if(sql AND NOT own STREQUAL "results")
    message("layers: ${file} (${own}) includes SQLite: SQL belongs in results/")
    math(EXPR violations "${violations} + 1")
  endif()
  file(STRINGS "${ROOT}/${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"][^>\"]+[>\"]")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*" "\\1" target "${line}")
    # The public header is reached as <memwall/memwall.hpp>.
    string(REGEX REPLACE "^memwall/" "include/memwall/" target "${target}")
    layer_of("${target}" part rank)
    if(part STREQUAL "" OR part STREQUAL own)
      continue()
    endif()
    if(rank GREATER_EQUAL own_rank)
      message("layers: ${file} (${own}, rank ${own_rank}) includes ${target} (${part}, rank ${rank})")
      math(EXPR violations "${violations} + 1")
    endif()
  endforeach()
endforeach()

list(LENGTH files checked)
if(violations GREATER 0)
  message(FATAL_ERROR "layers: ${violations} include(s) break the rules")
endif()
message("layers: ${checked} files checked, every include points down and SQL stays in results/")
