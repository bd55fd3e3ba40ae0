# app/gui: the desktop app `vitviz` (GLFW + Dear ImGui + OpenGL 4.3), in parts:
#   logic/   the window-free library vitviz_gui_logic (UI state, queued input
#            and the key map, bookmarks, colormaps, texture-cache bookkeeping,
#            options, file lists, the tour plan, the loader, export, the Draw
#            canvas's normalisation, CPU-vs-GPU differences, the side panel's
#            text), shared with tests/app;
#   views/   the pictures of the stages and the attention screen (heatmaps);
#   panels/  the panels around them (navigator, side panel, open, backend,
#            draw, toolbar, status bar);
#   .        the window, the frame loop, fonts, GL textures, the GPU session.
# Dear ImGui's GLFW and OpenGL3 backends are compiled unmodified from Debian's
# libimgui-dev examples.
set(VITVIZ_GUI_DIR ${CMAKE_CURRENT_SOURCE_DIR}/gui)
file(GLOB VITVIZ_GUI_LOGIC_SOURCES CONFIGURE_DEPENDS ${VITVIZ_GUI_DIR}/logic/*.cpp)
add_library(vitviz_gui_logic STATIC ${VITVIZ_GUI_LOGIC_SOURCES})
target_include_directories(vitviz_gui_logic PUBLIC ${VITVIZ_GUI_DIR}/logic)
target_link_libraries(vitviz_gui_logic PUBLIC vitcore PRIVATE PkgConfig::STB)

set(IMGUI_BACKEND_DIR /usr/share/doc/libimgui-dev/examples/backends CACHE PATH
    "Dear ImGui backend sources (Debian's libimgui-dev)")
add_library(imgui_backends STATIC ${IMGUI_BACKEND_DIR}/imgui_impl_glfw.cpp ${IMGUI_BACKEND_DIR}/imgui_impl_opengl3.cpp)
target_include_directories(imgui_backends PUBLIC /usr/include/imgui/backends)
target_link_libraries(imgui_backends PUBLIC PkgConfig::IMGUI PkgConfig::GLFW ${CMAKE_DL_LIBS})
target_compile_options(imgui_backends PRIVATE -w)

file(GLOB VITVIZ_GUI_SOURCES CONFIGURE_DEPENDS ${VITVIZ_GUI_DIR}/*.cpp ${VITVIZ_GUI_DIR}/views/*.cpp
     ${VITVIZ_GUI_DIR}/panels/*.cpp)
add_executable(vitviz ${VITVIZ_GUI_SOURCES})
target_include_directories(vitviz PRIVATE ${VITVIZ_GUI_DIR} ${VITVIZ_GUI_DIR}/views ${VITVIZ_GUI_DIR}/panels)
target_link_libraries(vitviz PRIVATE vitviz_gui_logic imgui_backends glad PkgConfig::IMGUI PkgConfig::GLFW PkgConfig::STB)
install(TARGETS vitviz RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The GPU backend (app/gpu): gpu_session.cpp runs it on the window's context.
target_link_libraries(vitviz PRIVATE vitgpu)
