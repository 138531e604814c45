# `cmake --install`: the llmplan program, the library (llmplan::llmplan), its public headers and a
# CMake package, so another project can `find_package(llmplan CONFIG)` and link llmplan::llmplan.
include(CMakePackageConfigHelpers)
if(TARGET llmplan)
  # Component "runtime": what the .deb carries (cmake/package.cmake); the library is "development".
  install(TARGETS llmplan RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  # `llmplan serve`'s module, where web_module_load.cpp looks for it (LLMPLAN_WEB_MODULE_RELDIR).
  install(TARGETS llmplan_web LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/llmplan COMPONENT runtime)
endif()
install(TARGETS llmplan_core EXPORT llmplan-targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
                                                    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/llmplan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
set(LLMPLAN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/llmplan)
install(EXPORT llmplan-targets NAMESPACE llmplan:: DESTINATION ${LLMPLAN_CMAKE_DIR} COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/llmplan-config.cmake.in
                              ${PROJECT_BINARY_DIR}/llmplan-config.cmake INSTALL_DESTINATION ${LLMPLAN_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/llmplan-config-version.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/llmplan-config.cmake ${PROJECT_BINARY_DIR}/llmplan-config-version.cmake
        DESTINATION ${LLMPLAN_CMAKE_DIR} COMPONENT development)

if(TARGET llmplan)
  include(${PROJECT_SOURCE_DIR}/cmake/package.cmake)
endif()
