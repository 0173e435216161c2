# cmake -P script: the static evidence of a launcher's kernels on one GPU architecture, as a C++
# source a family compiles in. It compiles SOURCE with nvcc for ARCH to a cubin with
# --resource-usage (ptxas: registers, spill bytes, stack frame, static shared memory per kernel),
# then counts, per kernel, the HMMA instructions of the cubin's SASS with SCAN (memwall_sass_scan),
# checked against cuobjdump's count when CUOBJDUMP and NVDISASM are given (MemwallTensorCoreSass.cmake
# finds them). Kernels whose mangled name contains MATCH are kept.
# The source defines FUNCTION (in NAMESPACE), declared in HEADER, returning a KernelResourceTable.
#   -DNVCC= -DSCAN= -DSOURCE= -DINCLUDE= -DARCH=90 -DMATCH= -DOUT=file.cpp -DHEADER= -DNAMESPACE= -DFUNCTION=
#   [-DCUOBJDUMP= -DNVDISASM=]
foreach(v NVCC SCAN SOURCE INCLUDE ARCH MATCH OUT HEADER NAMESPACE FUNCTION)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "KernelResources.cmake: -D${v}= is required")
  endif()
endforeach()
get_filename_component(dir "${OUT}" DIRECTORY)
set(flags -std=c++17 -O3 -arch=sm_${ARCH} -I${INCLUDE})
execute_process(COMMAND "${NVCC}" ${flags} --resource-usage -cubin -o "${dir}/${FUNCTION}.cubin" "${SOURCE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE report ERROR_VARIABLE report_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc --resource-usage ${SOURCE} failed:\n${report}${report_err}")
endif()
string(APPEND report "${report_err}")

# ptxas: "Compiling entry function 'NAME' for 'sm_90'", then "N bytes stack frame, N bytes spill
# stores, N bytes spill loads" and "Used N registers, ..., N bytes smem, ...".
string(REPLACE "\n" ";" lines "${report}")
set(kernels "")
foreach(line IN LISTS lines)
  if(line MATCHES "Compiling entry function '([^']+)'")
    set(k "${CMAKE_MATCH_1}")
    if(k MATCHES "${MATCH}")
      list(APPEND kernels "${k}")
    else()
      set(k "")
    endif()
  elseif(k AND line MATCHES "([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads")
    set(stack_${k} ${CMAKE_MATCH_1})
    math(EXPR spill_${k} "${CMAKE_MATCH_2} + ${CMAKE_MATCH_3}")
  elseif(k AND line MATCHES "Used ([0-9]+) registers")
    set(regs_${k} ${CMAKE_MATCH_1})
    set(smem_${k} 0)
    if(line MATCHES "([0-9]+) bytes smem")
      set(smem_${k} ${CMAKE_MATCH_1})
    endif()
  endif()
endforeach()
if(NOT kernels)
  message(FATAL_ERROR "KernelResources.cmake: ptxas reported no kernel matching '${MATCH}' in ${SOURCE}")
endif()

# HMMA per kernel, from the cubin's SASS (memwall_sass_scan); where cuobjdump and nvdisasm are
# given too, their count must agree, so the scanner's opcode table is cross-checked on such hosts.
execute_process(COMMAND "${SCAN}" --arch ${ARCH} "${dir}/${FUNCTION}.cubin" RESULT_VARIABLE rc
                OUTPUT_VARIABLE scanned ERROR_VARIABLE scan_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "KernelResources.cmake: memwall_sass_scan ${FUNCTION}.cubin failed: ${scan_err}")
endif()
string(REGEX MATCHALL "[^\n]+" scanned "${scanned}")
foreach(line IN LISTS scanned)
  # The scanner's registers and frame (from .nv.info) must be ptxas's: a cheap check of its reading.
  if(line MATCHES "^([A-Za-z0-9_]+) arch=[0-9]+ regs=([0-9]+) frame=([0-9]+) .* HMMA=([0-9]+)")
    set(k "${CMAKE_MATCH_1}")
    set(mma_${k} ${CMAKE_MATCH_4})
    if(DEFINED regs_${k} AND NOT (regs_${k} EQUAL CMAKE_MATCH_2 AND stack_${k} EQUAL CMAKE_MATCH_3))
      message(FATAL_ERROR "KernelResources.cmake: ${k}: memwall_sass_scan reads ${CMAKE_MATCH_2} registers and a "
              "${CMAKE_MATCH_3}-byte frame, ptxas reported ${regs_${k}} and ${stack_${k}}")
    endif()
  endif()
endforeach()
set(evidence "SASS HMMA by memwall_sass_scan")
if(CUOBJDUMP AND NVDISASM)
  get_filename_component(nvdisasm_dir "${NVDISASM}" DIRECTORY)
  set(ENV{PATH} "${nvdisasm_dir}:$ENV{PATH}")  # cuobjdump -sass runs nvdisasm
  execute_process(COMMAND "${CUOBJDUMP}" -sass "${dir}/${FUNCTION}.cubin" RESULT_VARIABLE rc OUTPUT_VARIABLE code)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "KernelResources.cmake: cuobjdump -sass ${FUNCTION}.cubin failed")
  endif()
  string(REPLACE ";" "," code "${code}")
  string(REPLACE "\n" ";" code "${code}")
  set(k "")
  foreach(line IN LISTS code)
    if(line MATCHES "Function : ([A-Za-z0-9_]+)")
      set(k "${CMAKE_MATCH_1}")
      set(hmma_${k} 0)
    elseif(k AND line MATCHES "[ \t]HMMA[. ]")
      math(EXPR hmma_${k} "${hmma_${k}} + 1")
    endif()
  endforeach()
  foreach(k IN LISTS kernels)
    if(NOT "${hmma_${k}}" STREQUAL "${mma_${k}}")
      message(FATAL_ERROR "KernelResources.cmake: ${k}: memwall_sass_scan counts ${mma_${k}} HMMA, cuobjdump ${hmma_${k}}")
    endif()
  endforeach()
  set(evidence "SASS HMMA by memwall_sass_scan, agreeing with cuobjdump")
endif()

set(rows "")
foreach(k IN LISTS kernels)
  if(NOT DEFINED mma_${k})
    set(mma_${k} 0)
  endif()
  string(APPEND rows "        {\"${k}\", ${regs_${k}}, ${spill_${k}}, ${stack_${k}}, ${smem_${k}}, ${mma_${k}}},\n")
endforeach()
# Written even when unchanged: the custom command's output must be newer than its inputs, or the
# build reruns nvcc for it every time.
file(WRITE "${OUT}" "// Generated at build time by cmake/KernelResources.cmake from nvcc --resource-usage and the
// instructions of ${SOURCE} for sm_${ARCH}.
#include \"${HEADER}\"

namespace ${NAMESPACE} {

const KernelResourceTable& ${FUNCTION}() {
    static const KernelResourceTable t{${ARCH}, \"${evidence}\", {
${rows}    }};
    return t;
}

}  // namespace ${NAMESPACE}
")
