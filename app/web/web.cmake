# app/web: the app as a web page (tools/web.sh builds it into build-web/site):
# the desktop app's sources with the browser's platform files (the web_* files
# of app/gui/services/ and shell/) instead of the desktop's, no GPU backend, the
# page (app/web/shell.html) around the canvas, and the assets and fonts
# preloaded into the page's file system (index.data).
set(VITVIZ_GUI_DIR ${PROJECT_SOURCE_DIR}/app/gui)
include(${VITVIZ_GUI_DIR}/logic/logic.cmake)
file(GLOB VITVIZ_WEB_SOURCES CONFIGURE_DEPENDS ${VITVIZ_GUI_DIR}/services/*.cpp ${VITVIZ_GUI_DIR}/shell/*.cpp
     ${VITVIZ_GUI_DIR}/controllers/*.cpp
     ${VITVIZ_GUI_DIR}/controllers/drivers/*.cpp
     ${VITVIZ_GUI_DIR}/views/*/*.cpp ${VITVIZ_GUI_DIR}/panels/*.cpp)
# The desktop's window, main and GPU session give way to the browser's.
list(FILTER VITVIZ_WEB_SOURCES EXCLUDE REGEX "/(services|shell)/desktop_[^/]*$|/controllers/gpu_session.cpp$")
add_executable(vitviz ${VITVIZ_WEB_SOURCES})
target_link_libraries(vitviz PRIVATE vitviz_gui_logic PkgConfig::IMGUI PkgConfig::STB)
set(WEB_FONTS /usr/share/fonts/truetype/dejavu)
set(VITVIZ_SITE ${CMAKE_BINARY_DIR}/site)
set_target_properties(vitviz PROPERTIES OUTPUT_NAME index SUFFIX .html RUNTIME_OUTPUT_DIRECTORY ${VITVIZ_SITE})
target_link_options(vitviz PRIVATE
  -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB
  -sMINIFY_HTML=0 -sENVIRONMENT=web -sEXPORTED_RUNTIME_METHODS=[FS,ccall,HEAPU8,lengthBytesUTF8,stringToUTF8]
  -sEXPORTED_FUNCTIONS=[_main,_malloc,_free]
  "SHELL:--shell-file ${CMAKE_CURRENT_LIST_DIR}/shell.html"
  "SHELL:--pre-js ${CMAKE_CURRENT_LIST_DIR}/hub.js"  # models named hf-hub: in the link, before the app starts
  # (SHELL: keeps each flag with its value: CMake would merge the repeated flags)
  "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/assets@/share/vitviz/assets"
  "SHELL:--exclude-file *screenshot.png" "SHELL:--exclude-file *.md"
  "SHELL:--preload-file ${WEB_FONTS}/DejaVuSans.ttf@${WEB_FONTS}/DejaVuSans.ttf"
  "SHELL:--preload-file ${WEB_FONTS}/DejaVuSans-Bold.ttf@${WEB_FONTS}/DejaVuSans-Bold.ttf"
  "SHELL:--preload-file ${WEB_FONTS}/DejaVuSansMono.ttf@${WEB_FONTS}/DejaVuSansMono.ttf")
set_property(TARGET vitviz APPEND PROPERTY LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/shell.html ${CMAKE_CURRENT_LIST_DIR}/hub.js)
# The list of Hub models the site holds (none until tools/web_bundle.sh puts some there), so
# that the page's look at it (hub.js) always finds a file.
if(NOT EXISTS ${VITVIZ_SITE}/hub/bundled.json)
  file(WRITE ${VITVIZ_SITE}/hub/bundled.json "{}\n")
endif()
