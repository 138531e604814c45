# `llmplan serve`: the web page and its API, compiled into the llmplan binary with every asset. Included
# from the top CMakeLists.txt (not add_subdirectory) so the generated asset file is visible to the target.
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

file(GLOB LLMPLAN_WEB_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
target_sources(llmplan PRIVATE ${LLMPLAN_WEB_SOURCES} ${PROJECT_BINARY_DIR}/generated/web_assets.cpp
                               ${PROJECT_BINARY_DIR}/generated/web_data.cpp)
target_include_directories(llmplan PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(llmplan PRIVATE PkgConfig::HTTPLIB)
