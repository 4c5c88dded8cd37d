# Run as cmake -DQUIRE=path/to/quire -DOUT=folder -P quire_docs.cmake: writes
# quire.1, quire-spec.5 and quire.bash, each printed by quire from its tables.
foreach(pair "--man;quire.1" "--man-spec;quire-spec.5" "--completion;quire.bash")
  list(GET pair 0 flag)
  list(GET pair 1 file)
  execute_process(COMMAND ${QUIRE} help ${flag} OUTPUT_FILE ${OUT}/${file} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "quire help ${flag} failed: ${rc}")
  endif()
endforeach()
