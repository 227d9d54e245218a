# docintel_embed_files(<target> <namespace> <base_dir> <files...>)
# Builds a static library <target> exposing
#   const std::map<std::string_view, std::string_view>& <namespace>::embeddedFiles();
# keyed by each file's path relative to <base_dir>. Rebuilt when any file changes.
function(docintel_embed_files target namespace base_dir)
  set(out_cpp "${CMAKE_CURRENT_BINARY_DIR}/${target}_embedded.cpp")
  string(REPLACE ";" "," file_list "${ARGN}")
  add_custom_command(
    OUTPUT "${out_cpp}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} -DNAMESPACE=${namespace} -DBASE=${base_dir}
            "-DFILES=${file_list}" -P "${PROJECT_SOURCE_DIR}/core/common/embed_files_run.cmake"
    DEPENDS ${ARGN} "${PROJECT_SOURCE_DIR}/core/common/embed_files_run.cmake"
    COMMENT "Embedding ${target}" VERBATIM)
  add_library(${target} STATIC "${out_cpp}")
endfunction()
