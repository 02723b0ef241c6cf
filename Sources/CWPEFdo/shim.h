// wpebackend-fdo's shared-memory export, used by CWebView's C only (flags from pkg-config wpebackend-fdo-1.0).
#include <wpe/fdo.h>
#include <wpe/unstable/fdo-shm.h>
#include <wayland-server.h>
