// SDL2_ttf for Swift: the header only.
#ifndef QUEUED_CSDL2TTF_SHIM_H
#define QUEUED_CSDL2TTF_SHIM_H
#include <SDL2/SDL_ttf.h>
#endif
