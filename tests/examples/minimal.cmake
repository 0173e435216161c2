# cmake -DBUILD=<memwall build> -DEXAMPLE=<examples/minimal> -DWRONG=<tests/examples/wrong> -DWORK=<scratch>
#       [-DCXX=... -DCXX_FLAGS=... -DLINKER_FLAGS=...] -P minimal.cmake
#
# The minimal path end to end: memwall installed into a fresh prefix; examples/minimal (a CUDA
# benchmark with a reference, a CPU one without) and tests/examples/wrong (kernels that are wrong
# beside one that is right) built against it with memwall_add_benchmark; their sweeps run on
# cuda-emu and cpu; the cases checked: ok with a reference, unchecked without one, wrong_result for
# a wrong kernel; compare, ci and tune refuse unchecked cases unless --allow-unchecked.
cmake_minimum_required(VERSION 3.25)

function(step what)
  cmake_parse_arguments(S "" "" "EXPECT" ${ARGN})
  if(NOT DEFINED S_EXPECT)
    set(S_EXPECT 0)
  endif()
  execute_process(COMMAND ${S_UNPARSED_ARGUMENTS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc IN_LIST S_EXPECT)
    message(FATAL_ERROR "minimal: ${what} exited ${rc}, not ${S_EXPECT}:\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
  set(step_error "${err}" PARENT_SCOPE)
endfunction()

# The statuses of the exported run's cases, as "variant/backend=status" sorted.
function(statuses json out)
  set(found "")
  string(JSON count LENGTH "${json}" cases)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON variant GET "${json}" cases ${i} variant)
    string(JSON backend GET "${json}" cases ${i} backend)
    string(JSON status GET "${json}" cases ${i} status)
    list(APPEND found "${variant}/${backend}=${status}")
  endforeach()
  list(SORT found)
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

function(expect what got want)
  if(NOT "${got}" STREQUAL "${want}")
    message(FATAL_ERROR "minimal: ${what}: got '${got}', expected '${want}'")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
foreach(project example wrong)
  string(TOUPPER ${project} source)
  step("configuring ${project}" ${CMAKE_COMMAND} -S ${${source}} -B ${WORK}/${project} -DCMAKE_BUILD_TYPE=Release
       -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
       "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
  step("building ${project}" ${CMAKE_COMMAND} --build ${WORK}/${project} -j 2)
endforeach()

set(quick --ceilings none --quiet --min-time 0 --timeout 0.05)
set(db ${WORK}/minimal.db)

# The CUDA benchmark on cuda-emu, checked by its reference: both values of its second axis.
step("scale's sweep" ${WORK}/example/scale --db ${db} run --backend cuda-emu --axis n=4096 ${quick})
step("scale's export" ${WORK}/example/scale --db ${db} export latest --format json)
statuses("${step_output}" got)
expect("scale's cases" "${got}" "scale_kernel/cuda-emu=ok;scale_kernel/cuda-emu=ok")

# The CPU benchmark has no reference: its cases are unchecked, and compare refuses them unless
# allowed.
foreach(i 1 2)
  step("triad's sweep" ${WORK}/example/triad --db ${db} run --axis n=4096 ${quick})
endforeach()
step("triad's export" ${WORK}/example/triad --db ${db} export latest --format json)
statuses("${step_output}" got)
expect("triad's cases" "${got}" "triad_loop/cpu=unchecked")
step("comparing unchecked runs" ${WORK}/example/triad --db ${db} compare 2 3 EXPECT 2)
if(NOT step_error MATCHES "unchecked.*--allow-unchecked")
  message(FATAL_ERROR "minimal: compare refused unchecked cases without saying how to allow them:\n${step_error}")
endif()
# Allowed, they are compared: two runs of a microsecond case on a busy host may differ (exit 1, a
# regression), but they are not refused (2).
step("comparing them allowed" ${WORK}/example/triad --db ${db} compare 2 3 --allow-unchecked EXPECT 0 1)
if(NOT step_output MATCHES "geometric mean over 1 cases")
  message(FATAL_ERROR "minimal: compare --allow-unchecked did not compare the unchecked case:\n${step_output}")
endif()
step("tuning an unchecked variant" ${WORK}/example/triad --db ${db} tune --family triad --variant triad_loop EXPECT 2)
if(NOT step_error MATCHES "no reference.*--allow-unchecked")
  message(FATAL_ERROR "minimal: tune refused an unchecked variant without saying how to allow it:\n${step_error}")
endif()

# ci refuses them as compare does: a suite of triad, a baseline recorded, then compared with it.
file(WRITE ${WORK}/triad-suite.json [=[{"name": "triad", "families": ["triad"], "axes": ["n=4096"],
 "sampler": {"warmup_runs": 1, "min_samples": 3, "min_time": 0, "max_noise": 1, "timeout": 0.05}, "repetitions": 3}]=])
set(ci ${WORK}/example/triad --db ${db} ci --suite ${WORK}/triad-suite.json --baseline triad --ceilings none --quiet)
step("recording triad's ci baseline" ${ci} --update-baseline)
step("ci against unchecked cases" ${ci} EXPECT 2)
if(NOT step_error MATCHES "unchecked.*--allow-unchecked")
  message(FATAL_ERROR "minimal: ci refused unchecked cases without saying how to allow them:\n${step_error}")
endif()
step("ci allowed" ${ci} --allow-unchecked EXPECT 0 1)
if(NOT step_output MATCHES "geometric mean over 1 cases")
  message(FATAL_ERROR "minimal: ci --allow-unchecked did not compare the unchecked case:\n${step_output}")
endif()

# Wrong kernels are caught on cpu and on cuda-emu; the right one beside them passes.
step("the wrong kernels' sweep" ${WORK}/wrong/wrong --db ${db} run --backend cpu,cuda-emu ${quick} EXPECT 1)
step("their export" ${WORK}/wrong/wrong --db ${db} export latest --format json)
statuses("${step_output}" got)
expect("the wrong kernels' cases" "${got}" "right/cpu=ok;scale_off/cuda-emu=wrong_result;wrong/cpu=wrong_result")
message("minimal: installed, built against the package, cases ok, unchecked and wrong_result as they should be")
