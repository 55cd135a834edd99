# clamsim-server with TLS on the web port, run as a process (SIGHUP, self-signed, bad files).
if(TARGET clamsim-server)
  clamsim_test(tls_server_test LABEL integration tls_server_test.cc)
  target_compile_definitions(tls_server_test PRIVATE
    CLAMSIM_SERVER_BINARY="$<TARGET_FILE:clamsim-server>")
  target_link_libraries(tls_server_test PRIVATE clamsim_web clamsim_test_web_client)
  add_dependencies(tls_server_test clamsim-server)
endif()
