// Routes FFmpeg's log lines to one plain C callback. av_log callbacks take a va_list, which a Swift
// @convention(c) closure cannot, so the formatting happens here.
#ifndef QUEUED_AVLOG_H
#define QUEUED_AVLOG_H

/// Receives one formatted line (no trailing newline) and FFmpeg's level (AV_LOG_*).
typedef void (*qd_avlog_sink)(int level, const char *line);

/// Installs `sink` as FFmpeg's log callback; lines above `max_level` (less severe) are dropped early.
void qd_avlog_install(qd_avlog_sink sink, int max_level);

#endif
