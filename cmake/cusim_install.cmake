# SPDX-License-Identifier: MIT
# Installs cusim as a CMake package: find_package(cusim) then cusim_add_executable(...).
include(CMakePackageConfigHelpers)

install(DIRECTORY include/cusim DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(_cusim_targets cusim)
if(CUSIM_BACKEND STREQUAL "sim")
  list(APPEND _cusim_targets cusim_simulator)
endif()
install(TARGETS ${_cusim_targets} EXPORT cusimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT cusimTargets NAMESPACE cusim:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cusim)
configure_package_config_file(cmake/cusimConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/cusimConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cusim)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/cusimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cusimConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/cusimConfigVersion.cmake
              cmake/cusim_helpers.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cusim)
