# cmake -DBUILD=<memwall build> -DSOURCE=<examples/custom-family> -DWORK=<scratch> [-DCXX=... -DCXX_FLAGS=...
#       -DLINKER_FLAGS=...] -P custom_family.cmake
#
# The public API end to end, as a user outside memwall's tree meets it: install memwall into a
# fresh prefix, configure and build the example project against it with find_package(memwall),
# run a sweep of its family on cpu and cuda-emu into a database, and check its cases there.
cmake_minimum_required(VERSION 3.25)

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "custom-family: ${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
step("configuring the example" ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -DCMAKE_BUILD_TYPE=Release
     -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
     "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
step("building the example" ${CMAKE_COMMAND} --build ${WORK}/build -j 2)
set(db ${WORK}/gather.db)
step("its sweep" ${WORK}/build/my-memwall --db ${db} run --family gather --backend cpu,cuda-emu --axis n=4096
     --ceilings none --quiet --min-time 0 --timeout 0.05)
step("its export" ${WORK}/build/my-memwall --db ${db} export latest --format json)

string(JSON count LENGTH "${step_output}" cases)
if(NOT count EQUAL 8)
  message(FATAL_ERROR "custom-family: expected 8 cases (2 tables x 2 orders x cpu and cuda-emu), got ${count}")
endif()
set(backends "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON family GET "${step_output}" cases ${i} family)
  string(JSON backend GET "${step_output}" cases ${i} backend)
  string(JSON status GET "${step_output}" cases ${i} status)
  string(JSON samples GET "${step_output}" cases ${i} summary n)
  if(NOT family STREQUAL "gather" OR NOT status STREQUAL "ok" OR samples LESS 1)
    message(FATAL_ERROR "custom-family: case ${i} is ${family}/${backend} ${status} with ${samples} samples")
  endif()
  list(APPEND backends ${backend})
endforeach()
list(REMOVE_DUPLICATES backends)
list(SORT backends)
if(NOT backends STREQUAL "cpu;cuda-emu")
  message(FATAL_ERROR "custom-family: backends ${backends}, expected cpu and cuda-emu")
endif()
message("custom-family: installed, built against the package, ${count} cases measured and checked")
