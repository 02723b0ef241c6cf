// zlib, for crc32 (the state journal's per-record checksum).
#include <zlib.h>
