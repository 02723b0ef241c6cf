// fontconfig for Swift: the header, plus the property names (string macros Swift cannot import).
#ifndef QUEUED_CFONTCONFIG_SHIM_H
#define QUEUED_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>
static inline const char *qd_fc_file(void) { return FC_FILE; }
static inline const char *qd_fc_family(void) { return FC_FAMILY; }
#endif
