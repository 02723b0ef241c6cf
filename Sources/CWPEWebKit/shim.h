// WPE WebKit's API, used by CWebView's C only (flags from pkg-config wpe-webkit-1.1).
#include <wpe/webkit.h>
