# cmake -DCUOBJDUMP=... [-DNVDISASM=...] -DLIBRARY=lib.a -DKERNELS=<regex> [-DARCH=sm_90]
#       -P CheckTensorCoreSass.cmake
#
# Static evidence of tensor-core kernels, no GPU needed: every kernel of LIBRARY's ARCH code
# whose (mangled) name matches KERNELS must use no local memory (cuobjdump -res-usage reports
# STACK:0 and LOCAL:0, so nothing spills: spills go to the stack frame in local memory) and must
# execute HMMA instructions (cuobjdump -sass). Prints each one's registers and HMMA count; fails
# naming each kernel that breaks a rule, or when KERNELS matches none.
if(NOT ARCH)
  set(ARCH sm_90)
endif()
if(NVDISASM)  # cuobjdump -sass runs nvdisasm from PATH
  cmake_path(GET NVDISASM PARENT_PATH dir)
  set(ENV{PATH} "${dir}:$ENV{PATH}")
endif()

function(run_cuobjdump out)
  execute_process(COMMAND "${CUOBJDUMP}" ${ARGN} -arch ${ARCH} "${LIBRARY}"
                  OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cuobjdump ${ARGN} ${LIBRARY} failed (${rc}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

run_cuobjdump(usage -res-usage)
run_cuobjdump(sass -sass)
string(REPLACE ";" "," usage "${usage}")
string(REPLACE ";" "," sass "${sass}")

set(checked 0)
set(broken "")
string(REGEX MATCHALL "Function ([^:\n]+):\n[^\n]*" functions "${usage}")
foreach(f IN LISTS functions)
  string(REGEX MATCH "Function ([^:\n]+):\n([^\n]*)" _ "${f}")
  set(name "${CMAKE_MATCH_1}")
  set(line "${CMAKE_MATCH_2}")
  if(NOT name MATCHES "${KERNELS}")
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  string(REGEX MATCH "REG:([0-9]+)" _ "${line}")
  set(registers "${CMAKE_MATCH_1}")
  string(REGEX MATCH "STACK:([0-9]+)" _ "${line}")
  set(stack "${CMAKE_MATCH_1}")
  string(REGEX MATCH "LOCAL:([0-9]+)" _ "${line}")
  set(local "${CMAKE_MATCH_1}")
  # The kernel's SASS: from its Function header to the next one.
  string(FIND "${sass}" "Function : ${name}\n" at)
  set(hmma 0)
  if(at GREATER_EQUAL 0)
    string(SUBSTRING "${sass}" ${at} -1 code)
    string(LENGTH "Function : ${name}\n" skip)
    string(SUBSTRING "${code}" ${skip} -1 code)
    string(FIND "${code}" "Function : " next)
    if(next GREATER_EQUAL 0)
      string(SUBSTRING "${code}" 0 ${next} code)
    endif()
    string(REGEX MATCHALL "[ \t]HMMA[.A-Z0-9]*" found "${code}")
    list(LENGTH found hmma)
  endif()
  message(STATUS "${name}: ${registers} registers, stack ${stack} B, local ${local} B, ${hmma} HMMA")
  if(NOT stack EQUAL 0 OR NOT local EQUAL 0)
    list(APPEND broken "${name} uses local memory (stack frame ${stack} B, local ${local} B): spills or a local array")
  endif()
  if(hmma EQUAL 0)
    list(APPEND broken "${name} has no HMMA instruction in its ${ARCH} SASS")
  endif()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "no ${ARCH} kernel of ${LIBRARY} matches '${KERNELS}'")
endif()
if(broken)
  list(JOIN broken "\n  " text)
  message(FATAL_ERROR "tensor-core kernels break the static rules:\n  ${text}")
endif()
message(STATUS "${checked} ${ARCH} kernel(s) of ${LIBRARY}: no local memory, HMMA present")
