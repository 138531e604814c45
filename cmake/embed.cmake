# llmplan_embed(OUT BASE [NAMESPACE ns] [FUNCTION fn] [HEADER h] FILES...): compile files into the
# binary as byte arrays, named by their path relative to BASE. The generated file defines
# ns::fn() (llmplan::detail::embedded_files() by default) returning a span of ns::embedded_file,
# the struct declared in header h ("detail/embedded.h" by default).
function(llmplan_embed out base)
  cmake_parse_arguments(EMBED "" "NAMESPACE;FUNCTION;HEADER" "" ${ARGN})
  set(files ${EMBED_UNPARSED_ARGUMENTS})
  if(NOT EMBED_NAMESPACE)
    set(EMBED_NAMESPACE llmplan::detail)
  endif()
  if(NOT EMBED_FUNCTION)
    set(EMBED_FUNCTION embedded_files)
  endif()
  if(NOT EMBED_HEADER)
    set(EMBED_HEADER detail/embedded.h)
  endif()
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DBASE=${base} -DNAMESPACE=${EMBED_NAMESPACE} -DFUNCTION=${EMBED_FUNCTION}
            -DHEADER=${EMBED_HEADER} "-DFILES=${files}" -P ${PROJECT_SOURCE_DIR}/cmake/embed_run.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/embed_run.cmake
    COMMENT "Embedding ${base} files"
    VERBATIM)
endfunction()
