# `cmake --install` exports memwall as a package for kernels outside memwall:
#   find_package(memwall)  ->  memwall::harness (run_cli, the catalogue, the kit), the
#   memwall_add_family() CMake function (examples/custom-family), and memwall_add_benchmark()
#   with memwall::bench_main for a program of MEMWALL_BENCH benchmarks (examples/minimal).
# The libraries go to lib/, their headers to include/memwall/<part>/, the package files to
# lib/cmake/memwall/. The built-in families are not part of the package.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(memwall_api INTERFACE)
target_link_libraries(memwall_api INTERFACE memwall_cli memwall_kit)

set(exported memwall_settings memwall_metrics memwall_stats memwall_core memwall_cuda_emu memwall_profiler
    memwall_results memwall_gpu memwall_tuner memwall_kit memwall_harness memwall_ci memwall_tuner_live memwall_cli
    memwall_api memwall_bench_main)
if(MEMWALL_HAVE_QT)
  list(APPEND exported memwall_gui_core)  # memwall plot
endif()
foreach(t IN LISTS exported)
  string(REGEX REPLACE "^memwall_" "" name ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${name})
endforeach()
# memwall::harness is the API a user links; the runner library itself is memwall::runner.
set_target_properties(memwall_harness PROPERTIES EXPORT_NAME runner)
set_target_properties(memwall_api PROPERTIES EXPORT_NAME harness)

install(TARGETS ${exported} EXPORT memwallTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT memwallTargets NAMESPACE memwall:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/memwall)
install(TARGETS memwall RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(MEMWALL_HAVE_QT)
  install(TARGETS memwall-gui RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(parts metrics stats core cuda_emu profiler results gpu tuner kernels/kit harness ci cli)
if(MEMWALL_HAVE_QT)
  list(APPEND parts gui/core)
endif()
foreach(part IN LISTS parts)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${part}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/memwall/${part}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/memwall/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/memwall
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh")

set(MEMWALL_PACKAGE_CUDA ${MEMWALL_HAVE_CUDA})
set(MEMWALL_PACKAGE_QT ${MEMWALL_HAVE_QT})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/memwallConfig.cmake.in
  ${PROJECT_BINARY_DIR}/memwallConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/memwall)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/memwallConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/memwallConfig.cmake ${PROJECT_BINARY_DIR}/memwallConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/MemwallFamily.cmake ${PROJECT_SOURCE_DIR}/cmake/MemwallCudaEmu.cmake
              ${PROJECT_SOURCE_DIR}/cmake/MemwallBench.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/memwall)
