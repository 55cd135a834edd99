# clamsim-wsload against the real clamsim-server, which it spawns itself (docs/wsload.md).
# Defined only once the server target exists, so the tree configures without it.
if(TARGET clamsim-server)
  clamsim_test(wsload_test LABEL integration wsload_test.cc)
  target_compile_definitions(wsload_test PRIVATE
    CLAMSIM_SERVER_BINARY="$<TARGET_FILE:clamsim-server>"
    CLAMSIM_WSLOAD_BINARY="$<TARGET_FILE:clamsim-wsload>")
  add_dependencies(wsload_test clamsim-server clamsim-wsload)
endif()

# The frame head reader alone (no server needed).
clamsim_test(frame_head_test LABEL unit frame_head_test.cc ${PROJECT_SOURCE_DIR}/server/tools/wsload/frame_head.cc)
target_include_directories(frame_head_test PRIVATE ${PROJECT_SOURCE_DIR}/server)
target_link_libraries(frame_head_test PRIVATE nlohmann_json::nlohmann_json)
