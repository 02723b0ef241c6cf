// libgpiod 1.6 (Debian's libgpiod-dev): GPIO lines through the kernel's character devices
// (/dev/gpiochipN). Everything used imports as it is.
#ifndef QUEUED_CGPIOD_SHIM_H
#define QUEUED_CGPIOD_SHIM_H
#include <gpiod.h>
#endif
