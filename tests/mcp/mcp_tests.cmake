# `llmplan mcp` (issue 24) driven by the Model Context Protocol's TypeScript SDK client over stdio.
# The client is installed by the test itself (npm ci --prefix tests/mcp) when missing; it skips (77),
# saying why, only where npm cannot install it and LLMPLAN_REQUIRE_NPM is not 1 (CI sets it).
find_program(LLMPLAN_NODE node)
if(LLMPLAN_NODE)
  add_test(NAME mcp_sdk_client COMMAND ${LLMPLAN_NODE} ${CMAKE_CURRENT_LIST_DIR}/mcp_client_test.mjs
                                       $<TARGET_FILE:llmplan>)
  set_tests_properties(mcp_sdk_client PROPERTIES LABELS mcp TIMEOUT 180 SKIP_RETURN_CODE 77)
else()
  message(WARNING "node not found: the MCP client test (tests/mcp) is not registered")
endif()
