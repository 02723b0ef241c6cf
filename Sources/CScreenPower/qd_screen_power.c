// The window system's own ways to put the screen to sleep, for the SDL window queued draws in:
// - X11: the DPMS extension, on the display connection SDL opened (DPMSForceLevel Off / On).
// - KMS/DRM (SDL's kmsdrm driver on the console): the connector's DPMS property, on SDL's DRM fd (SDL holds
//   DRM master; atomic drivers map the legacy property to the CRTC's ACTIVE).
// SDL has no API for either; it only hands out the native handles (SDL_GetWindowWMInfo). libXext and
// libdrm are taken with dlopen so that queued gains no link dependency: SDL itself already has them mapped
// on Debian, and where they are missing the way is reported unsupported. Hand-written in C because the
// native headers (<X11/Xlib.h>, <xf86drmMode.h>) are kept out of Swift's module maps.
#include "qd_screen_power.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <xf86drmMode.h>

// Constants from <X11/extensions/dpmsconst.h> and <drm_mode.h>, named as there.
#define QD_DPMSModeOn 0
#define QD_DPMSModeOff 3
#define QD_DRM_MODE_DPMS_ON 0
#define QD_DRM_MODE_DPMS_OFF 3

static void say(char *buffer, size_t size, const char *format, const char *detail) {
    if (buffer && size > 0) snprintf(buffer, size, format, detail ? detail : "");
}

// MARK: X11 DPMS

typedef int (*DPMSQueryExtension_f)(Display *, int *, int *);
typedef int (*DPMSCapable_f)(Display *);
typedef int (*DPMSInfo_f)(Display *, unsigned short *, unsigned char *);
typedef int (*DPMSEnable_f)(Display *);
typedef int (*DPMSDisable_f)(Display *);
typedef int (*DPMSForceLevel_f)(Display *, unsigned short);
typedef int (*XSync_f)(Display *, int);
typedef int (*XErrorHandler_f)(Display *, XErrorEvent *);
typedef XErrorHandler_f (*XSetErrorHandler_f)(XErrorHandler_f);

static struct {
    int loaded;  // 1: every function found; -1: not available
    DPMSQueryExtension_f query_extension;
    DPMSCapable_f capable;
    DPMSInfo_f info;
    DPMSEnable_f enable;
    DPMSDisable_f disable;
    DPMSForceLevel_f force_level;
    XSync_f sync;
    XSetErrorHandler_f set_error_handler;
} x11;

static int load_x11(void) {
    if (x11.loaded) return x11.loaded;
    void *xext = dlopen("libXext.so.6", RTLD_NOW | RTLD_LOCAL);
    void *xlib = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!xext || !xlib) return x11.loaded = -1;
    x11.query_extension = (DPMSQueryExtension_f)dlsym(xext, "DPMSQueryExtension");
    x11.capable = (DPMSCapable_f)dlsym(xext, "DPMSCapable");
    x11.info = (DPMSInfo_f)dlsym(xext, "DPMSInfo");
    x11.enable = (DPMSEnable_f)dlsym(xext, "DPMSEnable");
    x11.disable = (DPMSDisable_f)dlsym(xext, "DPMSDisable");
    x11.force_level = (DPMSForceLevel_f)dlsym(xext, "DPMSForceLevel");
    x11.sync = (XSync_f)dlsym(xlib, "XSync");
    x11.set_error_handler = (XSetErrorHandler_f)dlsym(xlib, "XSetErrorHandler");
    int all = x11.query_extension && x11.capable && x11.info && x11.enable && x11.disable && x11.force_level
        && x11.sync && x11.set_error_handler;
    return x11.loaded = all ? 1 : -1;
}

// Xlib's default error handler exits the process (SDL's chains to it): a refused request is caught here.
static int x11_error_code;
static int catch_x11_error(Display *display, XErrorEvent *event) {
    (void)display;
    x11_error_code = event->error_code;
    return 0;
}

static int x11_probe(Display *display, char *why, size_t why_size) {
    if (load_x11() < 0) {
        say(why, why_size, "libXext's DPMS functions are not available%s", NULL);
        return QD_SCREEN_POWER_NONE;
    }
    int event_base = 0, error_base = 0;
    if (!x11.query_extension(display, &event_base, &error_base)) {
        say(why, why_size, "X server has no DPMS extension%s", NULL);
        return QD_SCREEN_POWER_NONE;
    }
    if (!x11.capable(display)) {
        say(why, why_size, "X server is not DPMS-capable%s", NULL);
        return QD_SCREEN_POWER_NONE;
    }
    return QD_SCREEN_POWER_X11_DPMS;
}

static int x11_set(Display *display, int on, qd_screen_power_memory *memory, char *error, size_t error_size) {
    if (load_x11() < 0) {
        say(error, error_size, "libXext's DPMS functions are not available%s", NULL);
        return -1;
    }
    x11_error_code = 0;
    XErrorHandler_f previous = x11.set_error_handler(catch_x11_error);
    if (!on) {
        unsigned short level = 0;
        unsigned char enabled = 0;
        x11.info(display, &level, &enabled);
        // The server answers ForceLevel with BadMatch while DPMS is disabled.
        memory->x11_dpms_was_disabled = !enabled;
        if (!enabled) x11.enable(display);
        // While the screensaver is suspended SDL resets it every 30 s, which the server counts as input and
        // wakes the screen: let it be while the screen sleeps.
        SDL_EnableScreenSaver();
        x11.force_level(display, QD_DPMSModeOff);
    } else {
        x11.force_level(display, QD_DPMSModeOn);
        if (memory->x11_dpms_was_disabled) x11.disable(display);
        memory->x11_dpms_was_disabled = 0;
        SDL_DisableScreenSaver();
    }
    x11.sync(display, 0);
    x11.set_error_handler(previous);
    if (x11_error_code != 0) {
        char code[16];
        snprintf(code, sizeof code, "%d", x11_error_code);
        say(error, error_size, "the X server refused DPMSForceLevel (X error %s)", code);
        return -1;
    }
    unsigned short level = 0;
    unsigned char enabled = 0;
    x11.info(display, &level, &enabled);
    if (level != (on ? QD_DPMSModeOn : QD_DPMSModeOff)) {
        say(error, error_size, "the X server did not change its DPMS level%s", NULL);
        return -1;
    }
    return 0;
}

// MARK: DRM DPMS

typedef drmModeResPtr (*drmModeGetResources_f)(int);
typedef void (*drmModeFreeResources_f)(drmModeResPtr);
typedef drmModeConnectorPtr (*drmModeGetConnector_f)(int, uint32_t);
typedef void (*drmModeFreeConnector_f)(drmModeConnectorPtr);
typedef drmModePropertyPtr (*drmModeGetProperty_f)(int, uint32_t);
typedef void (*drmModeFreeProperty_f)(drmModePropertyPtr);
typedef int (*drmModeConnectorSetProperty_f)(int, uint32_t, uint32_t, uint64_t);

static struct {
    int loaded;
    drmModeGetResources_f get_resources;
    drmModeFreeResources_f free_resources;
    drmModeGetConnector_f get_connector;
    drmModeFreeConnector_f free_connector;
    drmModeGetProperty_f get_property;
    drmModeFreeProperty_f free_property;
    drmModeConnectorSetProperty_f set_property;
} drm;

static int load_drm(void) {
    if (drm.loaded) return drm.loaded;
    void *library = dlopen("libdrm.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return drm.loaded = -1;
    drm.get_resources = (drmModeGetResources_f)dlsym(library, "drmModeGetResources");
    drm.free_resources = (drmModeFreeResources_f)dlsym(library, "drmModeFreeResources");
    drm.get_connector = (drmModeGetConnector_f)dlsym(library, "drmModeGetConnector");
    drm.free_connector = (drmModeFreeConnector_f)dlsym(library, "drmModeFreeConnector");
    drm.get_property = (drmModeGetProperty_f)dlsym(library, "drmModeGetProperty");
    drm.free_property = (drmModeFreeProperty_f)dlsym(library, "drmModeFreeProperty");
    drm.set_property = (drmModeConnectorSetProperty_f)dlsym(library, "drmModeConnectorSetProperty");
    int all = drm.get_resources && drm.free_resources && drm.get_connector && drm.free_connector
        && drm.get_property && drm.free_property && drm.set_property;
    return drm.loaded = all ? 1 : -1;
}

/// The connected connector driving a picture (SDL's) and its DPMS property; 0 when there is none.
static int find_dpms(int fd, uint32_t *connector_id, uint32_t *property_id) {
    drmModeResPtr resources = drm.get_resources(fd);
    if (!resources) return 0;
    int found = 0;
    for (int index = 0; index < resources->count_connectors && !found; index++) {
        drmModeConnectorPtr connector = drm.get_connector(fd, resources->connectors[index]);
        if (!connector) continue;
        if (connector->connection == DRM_MODE_CONNECTED && connector->encoder_id != 0) {
            for (int prop = 0; prop < connector->count_props && !found; prop++) {
                drmModePropertyPtr property = drm.get_property(fd, connector->props[prop]);
                if (!property) continue;
                if (strcmp(property->name, "DPMS") == 0) {
                    *connector_id = connector->connector_id;
                    *property_id = property->prop_id;
                    found = 1;
                }
                drm.free_property(property);
            }
        }
        drm.free_connector(connector);
    }
    drm.free_resources(resources);
    return found;
}

static int drm_probe(int fd, char *why, size_t why_size) {
    if (load_drm() < 0) {
        say(why, why_size, "libdrm is not available%s", NULL);
        return QD_SCREEN_POWER_NONE;
    }
    uint32_t connector = 0, property = 0;
    if (fd < 0 || !find_dpms(fd, &connector, &property)) {
        say(why, why_size, "no connected DRM connector with a DPMS property%s", NULL);
        return QD_SCREEN_POWER_NONE;
    }
    return QD_SCREEN_POWER_DRM_DPMS;
}

static int drm_set(int fd, int on, char *error, size_t error_size) {
    uint32_t connector = 0, property = 0;
    if (load_drm() < 0 || !find_dpms(fd, &connector, &property)) {
        say(error, error_size, "no connected DRM connector with a DPMS property%s", NULL);
        return -1;
    }
    int result = drm.set_property(fd, connector, property, on ? QD_DRM_MODE_DPMS_ON : QD_DRM_MODE_DPMS_OFF);
    if (result != 0) {
        int code = result < 0 ? -result : errno;
        if (code == EACCES || code == EPERM) {
            say(error, error_size, "not DRM master (another process owns the display)%s", NULL);
        } else {
            say(error, error_size, "setting the connector's DPMS failed: %s", strerror(code));
        }
        return -1;
    }
    return 0;
}

// MARK: The window's system

static int window_info(void *window, SDL_SysWMinfo *info) {
    SDL_VERSION(&info->version);
    return window && SDL_GetWindowWMInfo((SDL_Window *)window, info) == SDL_TRUE;
}

int qd_screen_power_probe(void *window, char *why, size_t why_size) {
    SDL_SysWMinfo info;
    if (window_info(window, &info)) {
        if (info.subsystem == SDL_SYSWM_X11) return x11_probe(info.info.x11.display, why, why_size);
        if (info.subsystem == SDL_SYSWM_KMSDRM) return drm_probe(info.info.kmsdrm.drm_fd, why, why_size);
    }
    const char *driver = SDL_GetCurrentVideoDriver();
    say(why, why_size, "the SDL video driver %s has no standard way to put the screen to sleep; use --display-off-command",
        driver ? driver : "(none)");
    return QD_SCREEN_POWER_NONE;
}

int qd_screen_power_set(
    void *window, int method, int on, qd_screen_power_memory *memory, char *error, size_t error_size) {
    SDL_SysWMinfo info;
    if (!window_info(window, &info)) {
        say(error, error_size, "no native window: %s", SDL_GetError());
        return -1;
    }
    if (method == QD_SCREEN_POWER_X11_DPMS && info.subsystem == SDL_SYSWM_X11) {
        return x11_set(info.info.x11.display, on, memory, error, error_size);
    }
    if (method == QD_SCREEN_POWER_DRM_DPMS && info.subsystem == SDL_SYSWM_KMSDRM) {
        return drm_set(info.info.kmsdrm.drm_fd, on, error, error_size);
    }
    say(error, error_size, "the window's system has no way to put the screen to sleep%s", NULL);
    return -1;
}
