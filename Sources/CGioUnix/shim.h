// GIO's Unix streams (a descriptor as a GInputStream), used by CWebView's C only (flags from pkg-config
// gio-unix-2.0).
#include <gio/gunixinputstream.h>
