# memwall_add_family(<target> SOURCES <host sources>... [ISA_SOURCES <CPU kernels>...]
#                    [CUDA <launchers>...] [GPU_ONLY <launchers>...] [GPU_LIBS <libraries>...])
#
# A kernel family as one static library, <target>: its host sources (problem, reference,
# models, registration) built with the family kit; its CPU kernels (ISA_SOURCES) built twice,
# for x86-64-v3 and x86-64-v4 (kit/kernel_isa.hpp), with OpenMP; its CUDA launchers (.cu, which
# include their kernels' .cuh) built twice: by the host compiler for cuda-emu, instrumented for
# traffic counting (memwall_cuda_emu_sources), and, when CUDA is enabled, by nvcc for the
# project's CUDA architectures (memwall's own: sm_80 and sm_90). The launchers are C++17 (nvcc's
# dialect here): they include C++17 headers only, as kit/device_case.hpp and kit/cuda/*.cuh are.
# With CUDA, the host sources see MEMWALL_HAVE_CUDA, so their registration can name the GPU build
# (kit::CudaKernel::gpu). GPU_ONLY launchers (those calling libraries cuda-emu cannot run: cuBLAS,
# cuDNN, ...) go to the nvcc build alone, linked with GPU_LIBS; without CUDA they are not built,
# and the family registers those kernels without a GPU build. Out of memwall's tree
# (find_package(memwall)) the nvcc build needs the project to have enabled CUDA as well.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/MemwallCudaEmu.cmake)

function(memwall_add_family target)
  cmake_parse_arguments(F "" "" "SOURCES;ISA_SOURCES;CUDA;GPU_ONLY;GPU_LIBS" ${ARGN})
  add_library(${target} STATIC ${F_SOURCES})
  target_link_libraries(${target} PUBLIC memwall::kit)
  if(F_ISA_SOURCES)
    foreach(level 3 4)
      add_library(${target}_v${level} OBJECT ${F_ISA_SOURCES})
      target_link_libraries(${target}_v${level} PRIVATE memwall::kit OpenMP::OpenMP_CXX)
      target_compile_definitions(${target}_v${level} PRIVATE MEMWALL_KERNEL_LEVEL=${level})
      target_link_libraries(${target} PRIVATE ${target}_v${level})
    endforeach()
  endif()
  if(F_CUDA)
    add_library(${target}_emu STATIC)
    target_link_libraries(${target}_emu PUBLIC memwall::kit)
    memwall_cuda_emu_sources(${target}_emu ${F_CUDA})
    target_link_libraries(${target} PUBLIC ${target}_emu)
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if((F_CUDA OR F_GPU_ONLY) AND MEMWALL_HAVE_CUDA AND "CUDA" IN_LIST languages)
    add_library(${target}_gpu STATIC ${F_CUDA} ${F_GPU_ONLY})
    # Include directories only: the kit's options are for the host compiler.
    target_include_directories(${target}_gpu PRIVATE $<TARGET_PROPERTY:memwall::kit,INTERFACE_INCLUDE_DIRECTORIES>)
    target_link_libraries(${target}_gpu PUBLIC CUDA::cudart_static ${F_GPU_LIBS})
    # C++17: CMake 3.25 cannot ask nvcc for C++20 (and CUDA_STANDARD follows CXX_STANDARD).
    set_target_properties(${target}_gpu PROPERTIES CXX_STANDARD 17 CUDA_STANDARD 17)
    target_link_libraries(${target} PUBLIC ${target}_gpu)
    target_compile_definitions(${target} PRIVATE MEMWALL_HAVE_CUDA)
  endif()
endfunction()
