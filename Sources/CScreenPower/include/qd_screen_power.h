// Putting the screen to sleep the way the window's system offers (see qd_screen_power.c). Called on the
// thread that owns the SDL window. `window` is an SDL_Window *.
#ifndef QD_SCREEN_POWER_H
#define QD_SCREEN_POWER_H

#include <stddef.h>

enum {
    QD_SCREEN_POWER_NONE = 0,
    QD_SCREEN_POWER_X11_DPMS = 1,
    QD_SCREEN_POWER_DRM_DPMS = 2,
};

/// What turning the screen off changed, to be undone when it is turned on again.
typedef struct {
    /// X11: DPMS was disabled before the screen was forced off (it is disabled again at on).
    int x11_dpms_was_disabled;
} qd_screen_power_memory;

/// Which way the window's system can put the screen to sleep; for NONE, why not, in `why`.
int qd_screen_power_probe(void *window, char *why, size_t why_size);

/// Turns the screen off (on = 0) or on the way `method` (from the probe) says. 0 on success; otherwise
/// -1 with the reason in `error`.
int qd_screen_power_set(
    void *window, int method, int on, qd_screen_power_memory *memory, char *error, size_t error_size);

#endif
