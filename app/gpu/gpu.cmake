# GPU backend (included by app/CMakeLists.txt): the compute shaders of shaders/
# embedded into the library at build time, the `vitgpu` static library, and the
# `vitviz-gpu-bench` benchmark.
set(VITGPU_SHADER_DIR ${PROJECT_SOURCE_DIR}/shaders)
file(GLOB VITGPU_SHADERS CONFIGURE_DEPENDS ${VITGPU_SHADER_DIR}/*.comp)
set(VITGPU_EMBEDDED ${CMAKE_CURRENT_BINARY_DIR}/gpu/embedded_shaders_data.cpp)
add_custom_command(
  OUTPUT ${VITGPU_EMBEDDED}
  COMMAND ${CMAKE_COMMAND} -DSHADER_DIR=${VITGPU_SHADER_DIR} -DOUTPUT=${VITGPU_EMBEDDED}
          -P ${CMAKE_CURRENT_LIST_DIR}/embed_shaders.cmake
  DEPENDS ${VITGPU_SHADERS} ${CMAKE_CURRENT_LIST_DIR}/embed_shaders.cmake
  COMMENT "Embedding shaders/*.comp"
  VERBATIM)

add_library(vitgpu STATIC
  ${CMAKE_CURRENT_LIST_DIR}/embedded_shaders.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gl_context.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shader_program.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_buffers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_activations.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_backend.cpp
  ${VITGPU_EMBEDDED})
target_include_directories(vitgpu PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(vitgpu PUBLIC vitcore glad PkgConfig::GLFW)

add_executable(vitviz-gpu-bench ${CMAKE_CURRENT_LIST_DIR}/bench_main.cpp)
target_link_libraries(vitviz-gpu-bench PRIVATE vitgpu)
