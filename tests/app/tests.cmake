# tests/app: the app's UI logic without a window (app_tests), and the tour
# under Xvfb checked for a non-blank screenshot of every stage.
file(GLOB APP_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/app/*.cpp)
add_executable(app_tests ${APP_TEST_SOURCES} $<TARGET_OBJECTS:catch_main>)
target_link_libraries(app_tests PRIVATE vitviz_gui_logic vitcore Catch2::Catch2 PkgConfig::STB)
catch_discover_tests(app_tests)

find_program(XVFB_RUN xvfb-run)
if(XVFB_RUN)
  set(_tour ${CMAKE_CURRENT_SOURCE_DIR}/app/run_tour.cmake)
  add_test(NAME app_tour_of_the_toy_model_screenshots_every_stage_non_blank
           COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${XVFB_RUN} -DVITVIZ=$<TARGET_FILE:vitviz>
                   -DAPP_TESTS=$<TARGET_FILE:app_tests> -DDIR=${CMAKE_CURRENT_BINARY_DIR}/tour-toy
                   -DMODEL=toy-4x4 -P ${_tour})
  add_test(NAME app_tour_of_an_rgb_2_block_3_head_checkpoint_at_65_tokens_screenshots_every_stage_non_blank
           COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${XVFB_RUN} -DVITVIZ=$<TARGET_FILE:vitviz>
                   -DAPP_TESTS=$<TARGET_FILE:app_tests> -DDIR=${CMAKE_CURRENT_BINARY_DIR}/tour-timm
                   -DMODEL=${CMAKE_CURRENT_SOURCE_DIR}/fixtures/timm_f32
                   -DIMAGE=${CMAKE_CURRENT_SOURCE_DIR}/fixtures/timm_f32/image.png
                   "-DEXTRA=--image-size\\;64" -P ${_tour})
  add_test(NAME app_tour_asking_the_rgb_checkpoint_with_masked_dropped_shuffled_patches_and_a_silenced_head_screenshots_the_ask_panel
           COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${XVFB_RUN} -DVITVIZ=$<TARGET_FILE:vitviz>
                   -DAPP_TESTS=$<TARGET_FILE:app_tests> -DDIR=${CMAKE_CURRENT_BINARY_DIR}/tour-ask
                   -DMODEL=${CMAKE_CURRENT_SOURCE_DIR}/fixtures/timm_f32
                   -DIMAGE=${CMAKE_CURRENT_SOURCE_DIR}/fixtures/timm_f32/image.png -DASK=1
                   "-DEXTRA=--image-size\\;64\\;--mask-patches\\;3-5\\;--drop-tokens\\;20,21\\;--ablate-heads\\;1:2\\;--permute-patches\\;63,1-62,0\\;--temperature\\;0.5"
                   -P ${_tour})
  add_test(NAME app_train_window_tour_saves_start_middle_and_end_screenshots
           COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${XVFB_RUN} -DVITVIZ=$<TARGET_FILE:vitviz>
                   -DAPP_TESTS=$<TARGET_FILE:app_tests> -DDIR=${CMAKE_CURRENT_BINARY_DIR}/tour-train
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/app/run_train_tour.cmake)
  add_test(NAME app_lesson_editor_tour_saves_each_step_with_the_editor_and_the_transition_into_it_held_halfway
           COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${XVFB_RUN} -DVITVIZ=$<TARGET_FILE:vitviz>
                   -DAPP_TESTS=$<TARGET_FILE:app_tests> -DDIR=${CMAKE_CURRENT_BINARY_DIR}/tour-lesson-editor
                   -DLESSON=${CMAKE_CURRENT_SOURCE_DIR}/fixtures/lessons/editor-tour.json
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/app/run_lesson_editor_tour.cmake)
  # Every built-in lesson played end to end, one non-blank screenshot per step.
  file(GLOB _lessons CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/assets/lessons/*.json)
  foreach(_lesson ${_lessons})
    get_filename_component(_name ${_lesson} NAME_WE)
    add_test(NAME app_lesson_${_name}_plays_every_step_with_a_non_blank_screenshot
             COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${XVFB_RUN} -DVITVIZ=$<TARGET_FILE:vitviz>
                     -DAPP_TESTS=$<TARGET_FILE:app_tests> -DDIR=${CMAKE_CURRENT_BINARY_DIR}/lesson-${_name}
                     -DLESSON=${_lesson} -P ${CMAKE_CURRENT_SOURCE_DIR}/app/run_lesson_tour.cmake)
    set_tests_properties(app_lesson_${_name}_plays_every_step_with_a_non_blank_screenshot
                         PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
  endforeach()
  # Their hand-outs, opened in headless Chromium (tools/install-deps.sh --tests installs it).
  find_program(CHROMIUM NAMES chromium chromium-browser)
  if(CHROMIUM)
    foreach(_lesson ${_lessons})
      get_filename_component(_name ${_lesson} NAME_WE)
      add_test(NAME app_handout_of_${_name}_renders_every_step_in_headless_chromium
               COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${XVFB_RUN} -DVITVIZ=$<TARGET_FILE:vitviz>
                       -DAPP_TESTS=$<TARGET_FILE:app_tests> -DCHROMIUM=${CHROMIUM}
                       -DDIR=${CMAKE_CURRENT_BINARY_DIR}/handout-${_name} -DLESSON=${_lesson}
                       -P ${CMAKE_CURRENT_SOURCE_DIR}/app/run_handout.cmake)
      set_tests_properties(app_handout_of_${_name}_renders_every_step_in_headless_chromium
                           PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
    endforeach()
  else()
    message(STATUS "chromium not found: the hand-out tests are left out (tools/install-deps.sh --tests)")
  endif()
  set_tests_properties(app_lesson_editor_tour_saves_each_step_with_the_editor_and_the_transition_into_it_held_halfway
                       app_train_window_tour_saves_start_middle_and_end_screenshots
                       app_tour_of_the_toy_model_screenshots_every_stage_non_blank
                       app_tour_of_an_rgb_2_block_3_head_checkpoint_at_65_tokens_screenshots_every_stage_non_blank
                       app_tour_asking_the_rgb_checkpoint_with_masked_dropped_shuffled_patches_and_a_silenced_head_screenshots_the_ask_panel
                       PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
endif()
