# tests/app: the app's UI logic without a window (app_tests), and the app run
# under Xvfb as a user runs it (tours, lessons, hand-outs), its saved pictures
# checked by app_tests' hidden tags (run_app_check.cmake).
# tests/app/logic/<folder>/ holds the claims about app/gui/logic/<folder>/; tests/app/services/ has a
# target of its own (services_tests: the fonts, which need Dear ImGui).
file(GLOB_RECURSE APP_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/app/logic/*.cpp)
add_executable(app_tests ${APP_TEST_SOURCES} $<TARGET_OBJECTS:catch_main>)
target_link_libraries(app_tests PRIVATE vitviz_gui_logic vitcore Catch2::Catch2 PkgConfig::STB)
target_include_directories(app_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
catch_discover_tests(app_tests EXTRA_ARGS ${CATCH_WARN_NO_TESTS})  # as core_tests (tests/CMakeLists.txt)

find_program(XVFB_RUN xvfb-run)
find_program(CHROMIUM NAMES chromium chromium-browser)

# add_app_check(NAME DIR dir CHECK tag ARGS vitviz-args... [ENV VAR=VALUE...] [PAGE html] [MIN_COVERAGE pct]):
# `vitviz ARGS` under Xvfb (its tour's pictures covering at least pct% of the window on average), then
# app_tests "[tag]" on what it saved in DIR.
function(add_app_check name)
  cmake_parse_arguments(A "" "DIR;CHECK;PAGE;MIN_COVERAGE" "ARGS;ENV" ${ARGN})
  string(REPLACE ";" "|" args "${A_ARGS}")  # lists travel to the script joined by '|'
  string(REPLACE ";" "|" env "${A_ENV}")
  set(page)
  if(A_PAGE)
    set(page -DCHROMIUM=${CHROMIUM} -DPAGE=${A_PAGE})
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${XVFB_RUN} -DVITVIZ=$<TARGET_FILE:vitviz>
                   -DAPP_TESTS=$<TARGET_FILE:app_tests> -DDIR=${A_DIR} "-DARGS=${args}" -DCHECK=${A_CHECK}
                   "-DENV=${env}" -DMIN_COVERAGE=${A_MIN_COVERAGE} ${page} -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_app_check.cmake)
  set_tests_properties(${name} PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
endfunction()

if(XVFB_RUN)
  set(_bin ${CMAKE_CURRENT_BINARY_DIR})
  set(_timm ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/timm_f32)
  # A tour onto a full disk (the file-size limit makes every write fail): one line naming the screenshot, exit 1.
  add_test(NAME app_tour_onto_a_full_disk_names_the_screenshot_and_exits_1
           COMMAND ${XVFB_RUN} -a -s "-screen 0 1600x1000x24" /bin/bash -c
                   "trap '' XFSZ; ulimit -f 4; $<TARGET_FILE:vitviz> --model toy-4x4 --tour ${_bin}/tour-full; echo exit=$?")
  set_tests_properties(app_tour_onto_a_full_disk_names_the_screenshot_and_exits_1 PROPERTIES TIMEOUT 120 RUN_SERIAL TRUE
                       PASS_REGULAR_EXPRESSION "cannot write the PNG '[^']*00-input.png': file too large.*exit=1")
  # --measure-pass: the Ask panel's rerun, timed to its answer on screen, beside the core's pass; both finite.
  add_test(NAME app_measure_pass_reruns_the_ask_panel_pass_and_prints_finite_times
           COMMAND ${XVFB_RUN} -a -s "-screen 0 1600x1000x24" $<TARGET_FILE:vitviz> --model ${_timm}
                   --image ${_timm}/image.png --image-size 64 --measure-pass 3)
  set_tests_properties(app_measure_pass_reruns_the_ask_panel_pass_and_prints_finite_times PROPERTIES TIMEOUT 120
                       RUN_SERIAL TRUE PASS_REGULAR_EXPRESSION
                       "pass_ms median=[0-9]+\\.[0-9] min=[0-9]+\\.[0-9] max=[0-9]+\\.[0-9] n=3 [^\n]*\ncore_ms median=[0-9]+\\.[0-9] ")
  # A measurement runs what was asked or exits 1 with the error: no default model stands in for a model that
  # cannot be opened, no other size for one that does not fit (under an 8 GB address-space limit, whatever the
  # machine's memory, ViT-B at 1024 px cannot: "opening it at" would be another size).
  foreach(flag --measure-pass --measure-fps)
    add_test(NAME app${flag}_of_a_model_that_cannot_be_opened_exits_1_measuring_nothing
             COMMAND ${XVFB_RUN} -a -s "-screen 0 1600x1000x24" /bin/bash -c
                     "$<TARGET_FILE:vitviz> --model ${_bin}/no-such-model ${flag} 2; echo exit=$?")
    add_test(NAME app${flag}_of_a_size_that_does_not_fit_exits_1_measuring_no_other_size
             COMMAND ${XVFB_RUN} -a -s "-screen 0 1600x1000x24" /bin/bash -c
                     "ulimit -v 8000000; $<TARGET_FILE:vitviz> --model vit-b-random --image-size 1024 ${flag} 2; echo exit=$?")
    set_tests_properties(app${flag}_of_a_model_that_cannot_be_opened_exits_1_measuring_nothing PROPERTIES TIMEOUT 120
                         RUN_SERIAL TRUE PASS_REGULAR_EXPRESSION "vitviz: [^\n]*no-such-model[^\n]*\n(.*\n)?exit=1"
                         FAIL_REGULAR_EXPRESSION "pass_ms|measure-fps:|toy")
    set_tests_properties(app${flag}_of_a_size_that_does_not_fit_exits_1_measuring_no_other_size PROPERTIES TIMEOUT 120
                         RUN_SERIAL TRUE PASS_REGULAR_EXPRESSION "1024×1024 pixels \\(4097 tokens\\) needs[^\n]*\n(.*\n)?exit=1"
                         FAIL_REGULAR_EXPRESSION "pass_ms|measure-fps:|opening it at")
  endforeach()
  # A fallback starts from its own defaults: a model that cannot be opened at --image-size 1024 gives way to the
  # toy at its own size (not at 1024, which no machine holds), and the app runs on (the monkey's 3 s, then exit 0).
  add_test(NAME app_fallback_from_a_model_that_cannot_be_opened_opens_the_toy_at_its_own_size
           COMMAND ${XVFB_RUN} -a -s "-screen 0 1600x1000x24" /bin/bash -c
                   "$<TARGET_FILE:vitviz> --model ${_bin}/no-such-model --image-size 1024 --monkey 3; echo exit=$?")
  set_tests_properties(app_fallback_from_a_model_that_cannot_be_opened_opens_the_toy_at_its_own_size PROPERTIES
                       TIMEOUT 120 RUN_SERIAL TRUE PASS_REGULAR_EXPRESSION "no-such-model.*exit=0"
                       FAIL_REGULAR_EXPRESSION "opening it at|bad_alloc|out of memory")
  # The tours: every stage's NN-<stage id>.png exists and is not blank ("[.tour]").
  add_app_check(app_tour_of_the_toy_model_screenshots_every_stage_non_blank
                DIR ${_bin}/tour-toy CHECK .tour ENV VITVIZ_TOUR_MODEL=toy-4x4
                ARGS --model toy-4x4 --tour ${_bin}/tour-toy --select-token 2)
  # --pca-images: the patch-PCA shot waits for the other images' passes and shows the joint PCA.
  add_app_check(app_tour_of_the_toy_model_with_a_joint_patch_pca_over_two_photos_screenshots_every_stage_non_blank
                DIR ${_bin}/tour-joint-pca CHECK .tour ENV VITVIZ_TOUR_MODEL=toy-4x4
                ARGS --model toy-4x4 --tour ${_bin}/tour-joint-pca --select-token 2
                     --pca-images ${PROJECT_SOURCE_DIR}/assets/photos/coffee.jpg,${PROJECT_SOURCE_DIR}/assets/photos/chelsea.jpg)
  add_app_check(app_tour_of_an_rgb_2_block_3_head_checkpoint_at_65_tokens_screenshots_every_stage_non_blank
                DIR ${_bin}/tour-timm CHECK .tour ENV VITVIZ_TOUR_MODEL=${_timm}
                ARGS --model ${_timm} --image ${_timm}/image.png --image-size 64 --tour ${_bin}/tour-timm --select-token 2)
  # The same model keeping only the residual stream (as a pass too large does): each block recomputed when shown.
  add_app_check(app_tour_keeping_only_the_residual_stream_screenshots_every_stage_non_blank
                DIR ${_bin}/tour-stream CHECK .tour ENV VITVIZ_TOUR_MODEL=${_timm}
                ARGS --model ${_timm} --image ${_timm}/image.png --image-size 64 --keep-stream --tour ${_bin}/tour-stream
                     --select-token 2)
  add_app_check(app_tour_asking_the_rgb_checkpoint_with_masked_dropped_shuffled_patches_and_a_silenced_head_screenshots_the_ask_panel
                DIR ${_bin}/tour-ask CHECK .tour ENV VITVIZ_TOUR_MODEL=${_timm} VITVIZ_TOUR_ASK=1
                ARGS --model ${_timm} --image ${_timm}/image.png --image-size 64 --tour ${_bin}/tour-ask --select-token 2
                     --mask-patches 3-5 --drop-tokens 20,21 --ablate-heads 1:2 --permute-patches 63,1-62,0 --temperature 0.5)
  # timm's other token layouts: registers (CLS, REG0…REG3 before the patches), DeiT's DIST token and two
  # heads, and no class token with average pooling and fc_norm (the pool and pool_norm stages).
  foreach(_layout reg4 deit_distilled gap_fcnorm)
    set(_dir ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/timm_${_layout})
    add_app_check(app_tour_of_the_timm_${_layout}_token_layout_screenshots_every_stage_non_blank
                  DIR ${_bin}/tour-${_layout} CHECK .tour ENV VITVIZ_TOUR_MODEL=${_dir}
                  ARGS --model ${_dir} --image ${_dir}/image.png --tour ${_bin}/tour-${_layout} --select-token 7)
  endforeach()
  # A comparison model beside the loaded one (--compare-model): DeiT's two heads beside the registers model's three.
  set(_reg4 ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/timm_reg4)
  add_app_check(app_tour_with_a_comparison_model_shows_both_models_on_the_attention_and_cls_mask_screens
                DIR ${_bin}/tour-compare CHECK .compare_tour ENV VITVIZ_TOUR_MODEL=${_reg4}
                ARGS --model ${_reg4} --image ${_reg4}/image.png --compare-model ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/timm_deit_distilled
                     --tour ${_bin}/tour-compare)
  add_app_check(app_tour_with_a_comparison_model_keeping_the_stream_recomputes_both_models_shown_blocks
                DIR ${_bin}/tour-compare-stream CHECK .compare_tour ENV VITVIZ_TOUR_MODEL=${_reg4}
                ARGS --model ${_reg4} --image ${_reg4}/image.png --compare-model ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/timm_deit_distilled
                     --keep-stream --tour ${_bin}/tour-compare-stream)
  add_app_check(app_train_window_tour_saves_start_middle_and_end_screenshots
                DIR ${_bin}/tour-train CHECK .train_tour ARGS --train --train-epochs 1 --tour ${_bin}/tour-train)
  set(_editor_lesson ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/lessons/editor-tour.json)
  add_app_check(app_lesson_editor_tour_saves_each_step_with_the_editor_and_the_transition_into_it_held_halfway
                DIR ${_bin}/tour-lesson-editor CHECK .lesson_editor_tour
                ARGS --lesson ${_editor_lesson} --edit-lesson --tour ${_bin}/tour-lesson-editor)
  # Every built-in lesson played end to end, one non-blank screenshot per step, its pictures covering
  # at least 18% of the 1600×1000 window on average (a floor under today's 18.6–20.8%; the aim is 20%), and
  # its hand-out opened in headless Chromium (tools/install-deps.sh --tests installs it).
  # A lesson on a Hub model plays here offline with an empty cache (no test reaches a Hub): the lesson it
  # names "otherwise" plays instead, whole (tests/hub/test_hub.py plays one from a stand-in Hub).
  file(GLOB _lessons CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/assets/lessons/*.json)
  foreach(_lesson ${_lessons})
    get_filename_component(_name ${_lesson} NAME_WE)
    file(READ ${_lesson} _json)
    string(JSON _otherwise ERROR_VARIABLE _none GET "${_json}" otherwise)
    set(_env VITVIZ_LESSON=${_lesson})
    if(_otherwise)
      get_filename_component(_played ${_otherwise} ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR}/assets/lessons)
      set(_env VITVIZ_LESSON=${_played} HF_HUB_OFFLINE=1 HF_HUB_CACHE=${_bin}/empty-hub-cache)
    endif()
    add_app_check(app_lesson_${_name}_plays_every_step_with_a_non_blank_screenshot
                  DIR ${_bin}/lesson-${_name} CHECK .lesson_tour ENV ${_env} MIN_COVERAGE 19
                  ARGS --lesson ${_lesson} --tour ${_bin}/lesson-${_name})
    if(CHROMIUM)
      add_app_check(app_handout_of_${_name}_renders_every_step_in_headless_chromium
                    DIR ${_bin}/handout-${_name} CHECK .handout ENV ${_env}
                    PAGE ${_bin}/handout-${_name}/${_name}.html
                    ARGS --lesson ${_lesson} --handout ${_bin}/handout-${_name}/${_name}.html)
    endif()
  endforeach()
  if(CHROMIUM)  # a step that quotes the occlusion map on a screen that does not draw it: the page waits for it
    set(_occlusion_lesson ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/lessons/occlusion-off-attention.json)
    add_app_check(app_handout_waits_for_the_occlusion_map_a_step_quotes_off_the_attention_screen
                  DIR ${_bin}/handout-occlusion CHECK .handout ENV VITVIZ_LESSON=${_occlusion_lesson}
                  PAGE ${_bin}/handout-occlusion/occlusion.html
                  ARGS --lesson ${_occlusion_lesson} --handout ${_bin}/handout-occlusion/occlusion.html)
  endif()
  if(NOT CHROMIUM)
    message(STATUS "chromium not found: the hand-out tests are left out (tools/install-deps.sh --tests)")
  endif()
endif()
