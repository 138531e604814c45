# `cmake --build build --target package`: a Debian package (CPack DEB) of the program for people who
# would rather install than build: /usr/bin/llmplan and /usr/lib/llmplan/llmplan-web.so (`serve`);
# the model catalog and hardware tables are compiled into the program. Only the "runtime" install
# component goes in (the library and headers stay with `cmake --install`).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME llmplan)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR llmplan)
set(CPACK_PACKAGE_CONTACT "llmplan maintainers <llmplan@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "disk, memory, hardware, speed and cost to run or train a language model")
set(CPACK_PACKAGE_DESCRIPTION
    "llmplan estimates the disk, RAM and VRAM a language model needs for a given engine and precision, which machines fit it, how fast they run it and what they cost; `llmplan serve` shows the same answers in a local web page.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};${PROJECT_NAME};runtime;/")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
# Depends from the libraries the program and the web module link (dpkg-shlibdeps): libfmt, libstdc++,
# cpp-httplib (serve). libcurl is loaded only for Hub names (src/model/hub/curl_api.cpp), so it is a
# recommendation: without it catalog ids and local files work and a Hub name says what to install.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libcurl4 | libcurl3-gnutls")
set(CPACK_STRIP_FILES ON)
include(CPack)
