# Tests of `llmplan serve` (issue 11), each against a server on 127.0.0.1 that the test starts.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME web_api COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/api_test.py $<TARGET_FILE:llmplan>
                              ${PROJECT_SOURCE_DIR}/tests/data)
set_tests_properties(web_api PROPERTIES LABELS web TIMEOUT 120)

# The page in a real browser: Debian's chromium driven by puppeteer-core (npm ci --prefix tests/web).
# Installs puppeteer-core itself (npm ci) when missing; skips (77), printing why, when chromium is absent
# or npm cannot install it, unless LLMPLAN_REQUIRE_BROWSER=1 (CI).
# Screenshots of each state are kept in build/web-screenshots/ (fonts-wqy-microhei draws the Chinese ones).
find_program(LLMPLAN_NODE node)
if(LLMPLAN_NODE)
  add_test(NAME web_browser
           COMMAND ${LLMPLAN_NODE} ${CMAKE_CURRENT_LIST_DIR}/browser_test.mjs $<TARGET_FILE:llmplan>
                   ${PROJECT_BINARY_DIR}/web-screenshots
                   ${PROJECT_SOURCE_DIR}/data/models/Qwen--Qwen2.5-0.5B-Instruct/config.json)
  # The personas of issue 25 (a laptop in Arabic, an M3 Pro, names, serving, Chinese at two widths)
  # add a dozen page loads to the first walk: about 2.5 minutes on an idle 2-core machine.
  set_tests_properties(web_browser PROPERTIES LABELS web TIMEOUT 480 SKIP_RETURN_CODE 77)
endif()
