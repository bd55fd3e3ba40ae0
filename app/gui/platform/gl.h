// The OpenGL API the GUI draws with, one header for every platform: the desktop
// loads OpenGL 4.3 core functions through glad (desktop_window.cpp loads them);
// a browser build would include <GLES3/gl3.h> here instead. GUI files include
// this, never glad or a windowing library's GL header directly.
#pragma once
#include <glad/gl.h>
