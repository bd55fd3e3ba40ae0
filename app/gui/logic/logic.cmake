# The window-free library vitviz_gui_logic (app/gui/logic/*/, no GL, no ImGui),
# shared by the app (app/gui/gui.cmake), its tests (tests/app) and the lesson
# fuzz target (tests/fuzz), which builds it without the app.
file(GLOB VITVIZ_GUI_LOGIC_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*/*.cpp)
add_library(vitviz_gui_logic STATIC ${VITVIZ_GUI_LOGIC_SOURCES})
get_filename_component(VITVIZ_GUI_INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR} DIRECTORY)
target_include_directories(vitviz_gui_logic PUBLIC ${VITVIZ_GUI_INCLUDE_DIR})
target_link_libraries(vitviz_gui_logic PUBLIC vitcore PRIVATE PkgConfig::STB)
