# The Debian package (tools/package.sh): the menu entry and icon that install
# beside the binaries and assets, and CPack's DEB settings. Included from the
# top-level CMakeLists.txt outside Emscripten. vitviz.svg is written by hand;
# vitviz-48.png, the 48×48 PNG the icon theme spec asks every app for, is made
# from it with `rsvg-convert -w 48 -h 48 vitviz.svg -o vitviz-48.png` (librsvg2-bin).
if(TARGET vitviz)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/vitviz.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/vitviz.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/vitviz-48.png DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/48x48/apps
          RENAME vitviz.png)
endif()

# Installed binaries keep the OpenMP OpenBLAS they were built with, as the build
# tree's do: Debian's libopenblas.so.0 alternative prefers the pthread build
# wherever that is installed too, which would run a second thread pool.
# Lintian takes that RUNPATH for a mistake: lintian-overrides says it is not.
set(VITVIZ_PACKAGE_DEPENDS "fonts-dejavu-core, libgl1-mesa-dri, ca-certificates")
if(VITVIZ_BLAS_LIBRARY)
  get_filename_component(VITVIZ_BLAS_DIR ${VITVIZ_BLAS_LIBRARY} DIRECTORY)
  foreach(target vitviz vitviz-cli)
    if(TARGET ${target})
      set_target_properties(${target} PROPERTIES INSTALL_RPATH ${VITVIZ_BLAS_DIR})
    endif()
  endforeach()
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
          RENAME vitviz)
endif()
if(VITVIZ_BLAS STREQUAL "openblas")  # dpkg-shlibdeps names only libopenblas0, any of Debian's three builds
  string(PREPEND VITVIZ_PACKAGE_DEPENDS "libopenblas0-openmp, ")
endif()

# The package is built per Debian release: 0.21.0~deb12, 0.21.0~deb13
# (~codename on a release without a number, as testing).
set(VITVIZ_OS_RELEASE "")
if(EXISTS /etc/os-release)
  file(STRINGS /etc/os-release VITVIZ_OS_RELEASE REGEX "^(VERSION_ID|VERSION_CODENAME)=")
endif()
set(VITVIZ_DEB_SUFFIX "")
foreach(line IN LISTS VITVIZ_OS_RELEASE)
  if(line MATCHES "^VERSION_ID=\"?([0-9]+)")
    set(VITVIZ_DEB_SUFFIX "~deb${CMAKE_MATCH_1}")
  elseif(line MATCHES "^VERSION_CODENAME=(.+)$" AND NOT VITVIZ_DEB_SUFFIX)
    set(VITVIZ_DEB_SUFFIX "~${CMAKE_MATCH_1}")
  endif()
endforeach()

set(VITVIZ_PACKAGE_MAINTAINER "ViT Visualizer maintainers <maintainers@users.noreply.a-seed-dc18e1ec.example>"
    CACHE STRING "The Debian package's Maintainer field")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME vitviz)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION}${VITVIZ_DEB_SUFFIX})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "visual, stage-by-stage guide to Vision Transformers")
set(CPACK_PACKAGE_DESCRIPTION "A desktop app that teaches how a Vision Transformer works by stepping a
real image through every stage (patching, projection, CLS and positional
embedding, LayerNorm, Q/K/V, scores, softmax, weighted sum, MLP with GELU,
residuals, head) and drawing each tensor as a picture. It opens on a small
built-in model trained on digits and reads timm and Hugging Face checkpoints.
The package holds the app (vitviz) and the command-line tool (vitviz-cli).")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${VITVIZ_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS ${VITVIZ_PACKAGE_DEPENDS})
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
include(CPack)
