# llmplan_embed(OUT BASE FILES...): compile files into the binary as byte arrays, named by their
# path relative to BASE. The generated file defines llmplan::detail::embedded_files().
function(llmplan_embed out base)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DBASE=${base} "-DFILES=${files}" -P ${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake
    COMMENT "Embedding ${base} data files"
    VERBATIM)
endfunction()
