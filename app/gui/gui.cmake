# app/gui: the desktop app `vitviz` (GLFW + Dear ImGui + OpenGL 4.3).
# vitviz_gui_logic holds the parts without GL or ImGui (UI state, colormaps,
# texture cache bookkeeping, options, file lists, the tour plan, the loader),
# shared with tests/app. Dear ImGui's GLFW and OpenGL3 backends are compiled
# unmodified from Debian's libimgui-dev examples.
set(VITVIZ_GUI_DIR ${CMAKE_CURRENT_SOURCE_DIR}/gui)
set(VITVIZ_GUI_LOGIC_SOURCES
    ${VITVIZ_GUI_DIR}/app_state.cpp
    ${VITVIZ_GUI_DIR}/colormap.cpp
    ${VITVIZ_GUI_DIR}/texture_cache.cpp
    ${VITVIZ_GUI_DIR}/options.cpp
    ${VITVIZ_GUI_DIR}/file_list.cpp
    ${VITVIZ_GUI_DIR}/tour.cpp
    ${VITVIZ_GUI_DIR}/loader.cpp
    ${VITVIZ_GUI_DIR}/export.cpp)
list(APPEND VITVIZ_GUI_LOGIC_SOURCES ${VITVIZ_GUI_DIR}/canvas_image.cpp)  # the Draw canvas's MNIST normalisation
list(APPEND VITVIZ_GUI_LOGIC_SOURCES ${VITVIZ_GUI_DIR}/gpu_compare.cpp)  # CPU vs GPU differences, the GPU fallback
list(APPEND VITVIZ_GUI_LOGIC_SOURCES ${VITVIZ_GUI_DIR}/stage_info.cpp)  # the side panel's text (tested in tests/app)
add_library(vitviz_gui_logic STATIC ${VITVIZ_GUI_LOGIC_SOURCES})
target_include_directories(vitviz_gui_logic PUBLIC ${VITVIZ_GUI_DIR})
target_link_libraries(vitviz_gui_logic PUBLIC vitcore PRIVATE PkgConfig::STB)

set(IMGUI_BACKEND_DIR /usr/share/doc/libimgui-dev/examples/backends CACHE PATH
    "Dear ImGui backend sources (Debian's libimgui-dev)")
add_library(imgui_backends STATIC ${IMGUI_BACKEND_DIR}/imgui_impl_glfw.cpp ${IMGUI_BACKEND_DIR}/imgui_impl_opengl3.cpp)
target_include_directories(imgui_backends PUBLIC /usr/include/imgui/backends)
target_link_libraries(imgui_backends PUBLIC PkgConfig::IMGUI PkgConfig::GLFW ${CMAKE_DL_LIBS})
target_compile_options(imgui_backends PRIVATE -w)

file(GLOB VITVIZ_GUI_SOURCES CONFIGURE_DEPENDS ${VITVIZ_GUI_DIR}/*.cpp)
list(REMOVE_ITEM VITVIZ_GUI_SOURCES ${VITVIZ_GUI_LOGIC_SOURCES})
add_executable(vitviz ${VITVIZ_GUI_SOURCES})
target_link_libraries(vitviz PRIVATE vitviz_gui_logic imgui_backends glad PkgConfig::IMGUI PkgConfig::GLFW PkgConfig::STB)
install(TARGETS vitviz RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The GPU backend (app/gpu, issue 4): gpu_session.cpp runs it on the window's
# context; without it the toolbar's GPU choice stays disabled.
if(TARGET vitgpu)
  target_link_libraries(vitviz PRIVATE vitgpu)
  target_compile_definitions(vitviz PRIVATE VITVIZ_WITH_GPU)
endif()
