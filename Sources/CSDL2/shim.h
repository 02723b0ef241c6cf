// SDL2 for Swift: the header, plus the macros Swift cannot import.
#ifndef QUEUED_CSDL2_SHIM_H
#define QUEUED_CSDL2_SHIM_H
#include <SDL2/SDL.h>
static inline int qd_sdl_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }
static inline int qd_sdl_windowpos_undefined(void) { return SDL_WINDOWPOS_UNDEFINED; }
#endif
