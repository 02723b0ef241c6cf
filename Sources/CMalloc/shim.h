// glibc's allocator controls (mallopt), which Swift's Glibc module leaves out. Part of libc: nothing to link.
#include <malloc.h>
