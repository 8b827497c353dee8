# strata_add_library(NAME SOURCES ... LIBS ...): a small static library with one job.
function(strata_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${ARG_LIBS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

# strata_add_test(NAME SOURCES ... LIBS ...): one Qt Test executable registered with ctest.
# Tests find fixtures through STRATA_FIXTURES_DIR and run with the offscreen platform.
function(strata_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test ${ARG_LIBS})
  target_compile_definitions(${name} PRIVATE
    STRATA_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
    STRATA_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures"
    STRATA_PLUGIN_DIR="${STRATA_PLUGIN_OUTPUT_DIR}"
    STRATA_AGENT_DIR="${CMAKE_SOURCE_DIR}/agent")
  add_test(NAME ${name} COMMAND ${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  # Tests that start the agent need a python with triton (and torch for task tests): the one
  # named at configure time, else the project's .venv made by scripts/bootstrap.sh.
  set(test_python "$ENV{STRATA_PYTHON}")
  if(NOT test_python AND EXISTS ${CMAKE_SOURCE_DIR}/.venv/bin/python)
    set(test_python ${CMAKE_SOURCE_DIR}/.venv/bin/python)
  endif()
  # Qt Test's own watchdog (QTEST_FUNCTION_TIMEOUT, 300 s by default) would abort a long test
  # before ctest's TIMEOUT does; on a loaded 2-core CI machine tst_optimize_loop ran past it.
  # ctest's limit is the one we mean, so the watchdog gets the same figure.
  math(EXPR watchdog_ms "${ARG_TIMEOUT} * 1000")
  set(test_env "QT_QPA_PLATFORM=offscreen" "QTEST_FUNCTION_TIMEOUT=${watchdog_ms}")
  if(test_python)
    list(APPEND test_env "STRATA_PYTHON=${test_python}")
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT "${test_env}")
endfunction()

# While the tree is being built up in parallel, a folder without its CMakeLists.txt is skipped
# with a message instead of failing the whole configure.
macro(strata_subdirectory dir)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/CMakeLists.txt)
    add_subdirectory(${dir})
  else()
    message(STATUS "strata: ${CMAKE_CURRENT_SOURCE_DIR}/${dir} has no CMakeLists.txt yet, skipped")
  endif()
endmacro()
