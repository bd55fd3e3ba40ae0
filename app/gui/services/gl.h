// The OpenGL API the GUI draws with, one header for every platform: the desktop
// loads OpenGL 4.3 core functions through glad (desktop_window.cpp loads them);
// the browser build draws with WebGL 2, which is OpenGL ES 3.0. GUI files
// include this, never glad or a windowing library's GL header directly.
#pragma once
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <glad/gl.h>
#endif
