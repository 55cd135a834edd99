# clamsim-wsload against the real clamsim-server, which it spawns itself (docs/wsload.md).
# Defined only once the server target exists, so the tree configures without it.
if(TARGET clamsim-server)
  clamsim_test(wsload_test wsload_test.cc)
  target_compile_definitions(wsload_test PRIVATE
    CLAMSIM_SERVER_BINARY="$<TARGET_FILE:clamsim-server>"
    CLAMSIM_WSLOAD_BINARY="$<TARGET_FILE:clamsim-wsload>")
  add_dependencies(wsload_test clamsim-server clamsim-wsload)
endif()
