# clamsim-receiver and clamsim-loadgen against the real clamsim-server (child processes on
# loopback). Defined only once the server target exists, so the tree configures without it.
if(TARGET clamsim-server)
  # the receiver's parts (mapping, keys, status line, summary) alone are unit tests
  clamsim_test(receiver_test LABEL integration
    ALSO_FILTER "ReceiverJoystickMapping.*:ReceiverJoystickSource.*:ReceiverKeyboardKeys.*:ReceiverStatusLine.*:ReceiverSummary.*"
    ALSO_LABEL unit receiver_test.cc)
  target_link_libraries(receiver_test PRIVATE clamsim_receiver_parts)
  target_compile_definitions(receiver_test PRIVATE
    CLAMSIM_SERVER_BINARY="$<TARGET_FILE:clamsim-server>"
    CLAMSIM_RECEIVER_BINARY="$<TARGET_FILE:clamsim-receiver>"
    CLAMSIM_SIM_BINARY="$<TARGET_FILE:clamsim-sim>")
  add_dependencies(receiver_test clamsim-server clamsim-receiver clamsim-sim)

  # the client statistics (Client*) alone are unit tests
  clamsim_test(loadgen_test LABEL integration ALSO_FILTER "Client*" ALSO_LABEL unit loadgen_test.cc)
  target_link_libraries(loadgen_test PRIVATE clamsim_loadgen_parts)
  target_compile_definitions(loadgen_test PRIVATE
    CLAMSIM_SERVER_BINARY="$<TARGET_FILE:clamsim-server>"
    CLAMSIM_LOADGEN_BINARY="$<TARGET_FILE:clamsim-loadgen>")
  add_dependencies(loadgen_test clamsim-server clamsim-loadgen)
endif()
