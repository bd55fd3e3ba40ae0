# Checkpoints laid out like the real ViTs, built by PyTorch into the
# build folder at test time (they are hundreds of MB), then loaded and compared.
set(REAL_LAYOUTS_DIR ${CMAKE_BINARY_DIR}/real_layouts)
add_executable(real_layout_tests ${CMAKE_CURRENT_LIST_DIR}/test_real_layouts.cpp $<TARGET_OBJECTS:catch_main>)
target_link_libraries(real_layout_tests PRIVATE vitcore Catch2::Catch2)
target_compile_definitions(real_layout_tests PRIVATE VITVIZ_REAL_LAYOUTS="${REAL_LAYOUTS_DIR}")

add_test(NAME real_layouts_are_built_by_pytorch
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/make_real_layouts.py ${REAL_LAYOUTS_DIR})
set_tests_properties(real_layouts_are_built_by_pytorch PROPERTIES FIXTURES_SETUP real_layouts TIMEOUT 600 LABELS real)
add_test(NAME real_layout_checkpoints_match_pytorch COMMAND real_layout_tests)
set_tests_properties(real_layout_checkpoints_match_pytorch PROPERTIES FIXTURES_REQUIRED real_layouts TIMEOUT 600 LABELS real)
