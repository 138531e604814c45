# `llmplan serve`: the web page and its API. The server (cpp-httplib and every asset) is a module of its
# own, llmplan-web.so, which `llmplan serve` loads with dlopen (web_module_load.cpp): the other
# commands start without cpp-httplib's OpenSSL, zlib and brotli (issue 24, bench/README.md start-up).
# Included from the top CMakeLists.txt (not add_subdirectory) so the generated asset file is visible.
find_package(PkgConfig REQUIRED)
# Debian's libcpp-httplib-dev builds cpp-httplib as a shared library (with OpenSSL, zlib, brotli);
# its .pc file carries the defines the header must see to match it.
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib>=0.11)

file(GLOB_RECURSE LLMPLAN_WEB_ASSETS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/assets/*)
llmplan_embed(${PROJECT_BINARY_DIR}/generated/web_assets.cpp ${CMAKE_CURRENT_LIST_DIR}/assets
              NAMESPACE llmplan::web FUNCTION web_assets HEADER assets.h ${LLMPLAN_WEB_ASSETS})

# Data the page reads as it is: the message catalog (data/messages, the words of every sentence in
# each language) and the Ollama names (data/ollama/names.csv, for the model box's suggestions).
file(GLOB LLMPLAN_WEB_DATA CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/data/messages/*.json
     ${PROJECT_SOURCE_DIR}/data/ollama/names.csv)
llmplan_embed(${PROJECT_BINARY_DIR}/generated/web_data.cpp ${PROJECT_SOURCE_DIR}/data
              NAMESPACE llmplan::web FUNCTION web_data HEADER assets.h ${LLMPLAN_WEB_DATA})

# In the program: the `serve` subcommand and the module's loader.
target_sources(llmplan PRIVATE ${CMAKE_CURRENT_LIST_DIR}/serve_command.cpp ${CMAKE_CURRENT_LIST_DIR}/web_module_load.cpp)
target_include_directories(llmplan PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(llmplan PRIVATE ${CMAKE_DL_LIBS})
# Where the installed module lies, relative to the installed program (relocatable: dpkg -x, a prefix).
file(RELATIVE_PATH LLMPLAN_WEB_MODULE_RELDIR ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR}/llmplan)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/web_module_load.cpp PROPERTIES COMPILE_DEFINITIONS
                            LLMPLAN_WEB_MODULE_RELDIR="${LLMPLAN_WEB_MODULE_RELDIR}")

# The module: the server, the API routes and the page, with its own copy of the library (hidden, so
# that nothing of it clashes with the program's); only llmplan_web_run_server is exported.
add_library(llmplan_web MODULE ${CMAKE_CURRENT_LIST_DIR}/server.cpp ${CMAKE_CURRENT_LIST_DIR}/api_routes.cpp
                               ${CMAKE_CURRENT_LIST_DIR}/assets.cpp ${CMAKE_CURRENT_LIST_DIR}/web_module_entry.cpp
                               ${CMAKE_CURRENT_LIST_DIR}/answer_cache.cpp ${CMAKE_CURRENT_LIST_DIR}/my_machine.cpp
                               ${PROJECT_BINARY_DIR}/generated/web_assets.cpp
                               ${PROJECT_BINARY_DIR}/generated/web_data.cpp)
set_target_properties(llmplan_web PROPERTIES PREFIX "" OUTPUT_NAME llmplan-web CXX_VISIBILITY_PRESET hidden
                                             VISIBILITY_INLINES_HIDDEN ON
                                             LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
target_include_directories(llmplan_web PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(llmplan_web PRIVATE llmplan::core PkgConfig::HTTPLIB)
target_link_options(llmplan_web PRIVATE -Wl,--exclude-libs,ALL)
target_compile_options(llmplan_web PRIVATE ${LLMPLAN_WARNINGS})
# The program does not depend on its module: README's quick build (the `quick` build preset, the
# program alone) skips the page's server (about 36 s of CPU of a 2-core machine's first build, issue 24);
# the full build, the tests and the package build it, and `llmplan serve` says how when it is missing.
