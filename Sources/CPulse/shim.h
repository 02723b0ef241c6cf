// libpulse (async API with the threaded mainloop), plus the macros Swift cannot import.
#ifndef QUEUED_CPULSE_SHIM_H
#define QUEUED_CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
static inline pa_sample_format_t qd_pa_s16ne(void) { return PA_SAMPLE_S16NE; }
static inline pa_sample_format_t qd_pa_float32ne(void) { return PA_SAMPLE_FLOAT32NE; }
static inline uint32_t qd_pa_invalid_index(void) { return PA_INVALID_INDEX; }
#endif
