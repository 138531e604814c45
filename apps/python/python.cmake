# The Python module (issue 24): `import llmplan` from build/python (PYTHONPATH=build/python), built with
# Debian's pybind11 (pybind11-dev) from the same library as the CLI; its type stubs are generated from
# the option table. Skipped, with a message, where pybind11 or Python's headers are missing.
find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
find_package(pybind11 CONFIG QUIET)
if(NOT Python3_Development.Module_FOUND OR NOT pybind11_FOUND)
  message(STATUS "llmplan: no Python module (needs pybind11-dev and python3-dev)")
  return()
endif()
set(LLMPLAN_PYTHON_DIR ${PROJECT_BINARY_DIR}/python)
pybind11_add_module(llmplan_python MODULE ${CMAKE_CURRENT_LIST_DIR}/_llmplan.cpp)
set_target_properties(llmplan_python PROPERTIES OUTPUT_NAME _llmplan LIBRARY_OUTPUT_DIRECTORY ${LLMPLAN_PYTHON_DIR}/llmplan)
target_link_libraries(llmplan_python PRIVATE llmplan::core)
add_custom_command(
  OUTPUT ${LLMPLAN_PYTHON_DIR}/llmplan/__init__.py ${LLMPLAN_PYTHON_DIR}/llmplan/__init__.pyi
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_LIST_DIR}/llmplan/__init__.py ${LLMPLAN_PYTHON_DIR}/llmplan/__init__.py
  COMMAND ${CMAKE_COMMAND} -E touch ${LLMPLAN_PYTHON_DIR}/llmplan/py.typed
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/gen_stubs.py ${LLMPLAN_PYTHON_DIR}
  DEPENDS ${CMAKE_CURRENT_LIST_DIR}/llmplan/__init__.py ${CMAKE_CURRENT_LIST_DIR}/gen_stubs.py llmplan_python
  COMMENT "Python package in ${LLMPLAN_PYTHON_DIR}/llmplan")
add_custom_target(llmplan_python_package ALL DEPENDS ${LLMPLAN_PYTHON_DIR}/llmplan/__init__.pyi)
set(LLMPLAN_PYTHON_MODULE_DIR ${LLMPLAN_PYTHON_DIR} CACHE INTERNAL "where `import llmplan` is found")
