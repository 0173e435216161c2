# memwall_tensor_core_sass_test(<test> TARGET <static CUDA library> KERNELS <regex> [ARCH sm_90])
#
# A ctest, no GPU needed, that reads TARGET's ARCH SASS with memwall_sass_scan (tools/) and
# requires every kernel whose mangled name matches KERNELS to use no local memory (no spills) and
# to run HMMA instructions (CheckTensorCoreSass.cmake). Where the CUDA toolkit has cuobjdump and
# nvdisasm (CUDA 13.0's here lacks them; pip's nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm
# carry them: set MEMWALL_CUOBJDUMP and MEMWALL_NVDISASM), the test also checks the scanner
# against them.
include_guard(GLOBAL)

find_program(MEMWALL_CUOBJDUMP cuobjdump HINTS ${CUDAToolkit_BIN_DIR} DOC "cuobjdump, to cross-check the SASS scanner")
find_program(MEMWALL_NVDISASM nvdisasm HINTS ${CUDAToolkit_BIN_DIR} DOC "nvdisasm, which cuobjdump -sass runs")

function(memwall_tensor_core_sass_test name)
  cmake_parse_arguments(A "" "TARGET;KERNELS;ARCH" "" ${ARGN})
  if(NOT A_TARGET OR NOT A_KERNELS)
    message(FATAL_ERROR "memwall_tensor_core_sass_test(${name}): TARGET and KERNELS are required")
  endif()
  if(NOT A_ARCH)
    set(A_ARCH sm_90)
  endif()
  set(cross_check "")
  if(MEMWALL_CUOBJDUMP AND MEMWALL_NVDISASM)
    set(cross_check -DCUOBJDUMP=${MEMWALL_CUOBJDUMP} -DNVDISASM=${MEMWALL_NVDISASM})
  endif()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DSCAN=$<TARGET_FILE:memwall_sass_scan> ${cross_check}
           -DLIBRARY=$<TARGET_FILE:${A_TARGET}> -DKERNELS=${A_KERNELS} -DARCH=${A_ARCH}
           -P ${PROJECT_SOURCE_DIR}/cmake/CheckTensorCoreSass.cmake)
  set_tests_properties(${name} PROPERTIES LABELS fast)
endfunction()

# memwall_kernel_resources(<target> SOURCE <launcher.cu> MATCH <regex> HEADER <header>
#                          NAMESPACE <namespace> FUNCTION <name> [DEPENDS <files>...])
#
# The static figures of a family's tensor-core kernels in every build, no GPU needed: generates at
# build time, by KernelResources.cmake, FUNCTION's source (declared in HEADER, in NAMESPACE: the
# sm_90 registers, spills, stack and static shared memory ptxas reports for SOURCE's kernels whose
# mangled names match MATCH, and their HMMA counted in the SASS) and adds it to <target>. DEPENDS
# names the headers SOURCE includes beside the kit's.
function(memwall_kernel_resources target)
  cmake_parse_arguments(A "" "SOURCE;MATCH;HEADER;NAMESPACE;FUNCTION" "DEPENDS" ${ARGN})
  set(cross_check "")
  if(MEMWALL_CUOBJDUMP AND MEMWALL_NVDISASM)
    set(cross_check -DCUOBJDUMP=${MEMWALL_CUOBJDUMP} -DNVDISASM=${MEMWALL_NVDISASM})
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${A_FUNCTION}.cpp)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DNVCC=${CMAKE_CUDA_COMPILER} -DSCAN=$<TARGET_FILE:memwall_sass_scan> ${cross_check}
            -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/${A_SOURCE} -DINCLUDE=${PROJECT_SOURCE_DIR} -DARCH=90 -DMATCH=${A_MATCH}
            -DOUT=${out} -DHEADER=${A_HEADER} -DNAMESPACE=${A_NAMESPACE} -DFUNCTION=${A_FUNCTION}
            -P ${PROJECT_SOURCE_DIR}/cmake/KernelResources.cmake
    DEPENDS memwall_sass_scan ${A_SOURCE} ${A_DEPENDS} ${PROJECT_SOURCE_DIR}/kernels/kit/cuda/mma.cuh
            ${PROJECT_SOURCE_DIR}/kernels/kit/cuda/common.cuh ${PROJECT_SOURCE_DIR}/cmake/KernelResources.cmake
    COMMENT "Reading ${A_FUNCTION}: registers, spills and HMMA on sm_90"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
