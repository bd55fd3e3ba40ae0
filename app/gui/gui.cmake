# app/gui: the desktop app `vitviz` (GLFW + Dear ImGui + OpenGL 4.3), in parts:
#   logic/        the window-free library vitviz_gui_logic, shared with tests/app:
#                 state/ (UI state, input queue, key map, bookmarks, options,
#                 tour plan, caches, export), lesson/ (lessons, editor, player,
#                 hand-out), ask/ (the Ask panel's question and answers), jobs/
#                 (loading, explanations and training off the UI thread),
#                 describe/ (side-panel text, colormaps, layouts);
#   views/        the pictures: stages/ (one per kind of stage), screens/ (the
#                 attention, model-view, overview and Why screens), widgets/
#                 (heatmaps, charts, the drawing helpers they share);
#   panels/       the panels around them (navigator, side panel, toolbar...);
#   controllers/  App (the UI state, the model and trace on screen, the layout)
#                 and one controller per feature, each with its own state and
#                 per-frame work (GPU, Ask, lessons and hand-outs, training),
#                 sharing an AppContext (controllers/app_context.h);
#   services/     what the views, panels and controllers use of the machine:
#                 the GL header (gl.h), files (files.h: desktop_files.cpp),
#                 fonts, GL textures, what the app asks of its window
#                 (host_window.h);
#   shell/        what runs App: the window and frame() (window.h:
#                 desktop_window.cpp, GLFW; glfw_frame what the desktop and
#                 the page share), and desktop_main.cpp, which reads the
#                 command line and runs frames. `desktop_*` files are the
#                 desktop's, `web_*` the page's (app/web/web.cmake).
# Includes name the folder from app/gui: #include "logic/state/app_state.h".
# Dear ImGui's GLFW and OpenGL3 backends are compiled unmodified from Debian's
# libimgui-dev examples.
set(VITVIZ_GUI_DIR ${CMAKE_CURRENT_SOURCE_DIR}/gui)
include(${VITVIZ_GUI_DIR}/logic/logic.cmake)

set(IMGUI_BACKEND_DIR /usr/share/doc/libimgui-dev/examples/backends CACHE PATH
    "Dear ImGui backend sources (Debian's libimgui-dev)")
add_library(imgui_backends STATIC ${IMGUI_BACKEND_DIR}/imgui_impl_glfw.cpp ${IMGUI_BACKEND_DIR}/imgui_impl_opengl3.cpp)
target_include_directories(imgui_backends PUBLIC /usr/include/imgui/backends)
target_link_libraries(imgui_backends PUBLIC PkgConfig::IMGUI PkgConfig::GLFW ${CMAKE_DL_LIBS})
target_compile_options(imgui_backends PRIVATE -w)
# Debian's ImGui 1.86 GL loader (imgui_impl_opengl3_loader.h) fills its 53-entry table with an
# index one past the end: a UBSan report in their code, not ours, so UBSan skips these two files.
if(VITVIZ_SANITIZE)
  target_compile_options(imgui_backends PRIVATE -fno-sanitize=undefined)
endif()

file(GLOB VITVIZ_GUI_SOURCES CONFIGURE_DEPENDS ${VITVIZ_GUI_DIR}/services/*.cpp ${VITVIZ_GUI_DIR}/shell/*.cpp
     ${VITVIZ_GUI_DIR}/controllers/*.cpp
     ${VITVIZ_GUI_DIR}/controllers/drivers/*.cpp
     ${VITVIZ_GUI_DIR}/views/*/*.cpp ${VITVIZ_GUI_DIR}/panels/*.cpp)
list(FILTER VITVIZ_GUI_SOURCES EXCLUDE REGEX "/(services|shell)/web_[^/]*$")  # the browser's (app/web/web.cmake)
add_executable(vitviz ${VITVIZ_GUI_SOURCES})
target_link_libraries(vitviz PRIVATE vitviz_gui_logic imgui_backends glad PkgConfig::IMGUI PkgConfig::GLFW PkgConfig::STB)
install(TARGETS vitviz RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The GPU backend (gpu/): controllers/gpu_session.cpp runs it on the window's context.
target_link_libraries(vitviz PRIVATE vitgpu)
