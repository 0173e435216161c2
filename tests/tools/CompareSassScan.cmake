# cmake -DSCAN=memwall_sass_scan -DDATA=tests/data/sass -P CompareSassScan.cmake
execute_process(COMMAND "${SCAN}" "${DATA}/tiny_mma.sm_80.cubin" "${DATA}/tiny_mma.sm_90.cubin"
                OUTPUT_VARIABLE got ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ "${DATA}/tiny_mma.expected" want)
if(NOT rc EQUAL 0 OR NOT got STREQUAL want)
  message(FATAL_ERROR "memwall_sass_scan (${rc}) ${err}gave:\n${got}nvdisasm counted:\n${want}")
endif()
message(STATUS "memwall_sass_scan agrees with nvdisasm on the sm_80 and sm_90 fixtures")
