# cmake -P script: the static evidence of a launcher's kernels on one GPU architecture, as a C++
# source a family compiles in. It compiles SOURCE with nvcc for ARCH twice: to a cubin with
# --resource-usage (ptxas: registers, spill bytes, stack frame, static shared memory per kernel)
# and to PTX; then counts, per kernel, the matrix instructions: HMMA in the SASS when CUOBJDUMP
# and NVDISASM are given (MemwallTensorCoreSass.cmake finds them), else mma.sync in the PTX (which
# ptxas lowers to HMMA), and says which. Kernels whose mangled name contains MATCH are kept.
# The source defines FUNCTION (in NAMESPACE), declared in HEADER, returning a KernelResourceTable.
#   -DNVCC= -DSOURCE= -DINCLUDE= -DARCH=90 -DMATCH= -DOUT=file.cpp -DHEADER= -DNAMESPACE= -DFUNCTION=
#   [-DCUOBJDUMP= -DNVDISASM=]
foreach(v NVCC SOURCE INCLUDE ARCH MATCH OUT HEADER NAMESPACE FUNCTION)
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

# Matrix instructions per kernel: the SASS's "Function : NAME" sections, or the PTX's ".entry NAME".
if(CUOBJDUMP AND NVDISASM)
  get_filename_component(nvdisasm_dir "${NVDISASM}" DIRECTORY)
  set(ENV{PATH} "${nvdisasm_dir}:$ENV{PATH}")  # cuobjdump -sass runs nvdisasm
  execute_process(COMMAND "${CUOBJDUMP}" -sass "${dir}/${FUNCTION}.cubin" RESULT_VARIABLE rc OUTPUT_VARIABLE code)
  set(header "Function : ([A-Za-z0-9_]+)")
  set(instruction "HMMA")
  set(evidence "SASS HMMA (cuobjdump)")
else()
  execute_process(COMMAND "${NVCC}" ${flags} -ptx -o "${dir}/${FUNCTION}.ptx" "${SOURCE}" RESULT_VARIABLE rc)
  file(READ "${dir}/${FUNCTION}.ptx" code)
  set(header "\\.entry ([A-Za-z0-9_]+)")
  set(instruction "mma\\.sync")
  set(evidence "PTX mma.sync (no cuobjdump to read the SASS)")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "KernelResources.cmake: reading the instructions of ${SOURCE} failed")
endif()
string(REPLACE ";" "," code "${code}")
string(REPLACE "\n" ";" code "${code}")
set(k "")
foreach(line IN LISTS code)
  if(line MATCHES "${header}")
    set(k "${CMAKE_MATCH_1}")
    set(mma_${k} 0)
  elseif(k AND line MATCHES "${instruction}")
    math(EXPR mma_${k} "${mma_${k}} + 1")
  endif()
endforeach()

set(rows "")
foreach(k IN LISTS kernels)
  if(NOT DEFINED mma_${k})
    set(mma_${k} 0)
  endif()
  string(APPEND rows "        {\"${k}\", ${regs_${k}}, ${spill_${k}}, ${stack_${k}}, ${smem_${k}}, ${mma_${k}}},\n")
endforeach()
file(WRITE "${OUT}.new" "// Generated at build time by cmake/KernelResources.cmake from nvcc --resource-usage and the
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
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.new" "${OUT}")
