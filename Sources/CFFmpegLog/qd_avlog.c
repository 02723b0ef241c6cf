#include "qd_avlog.h"
#include <string.h>
#include <libavutil/log.h>

static qd_avlog_sink current_sink;
static int current_max_level = AV_LOG_WARNING;

static void forward(void *avcl, int level, const char *fmt, va_list args) {
    if (level > current_max_level || !current_sink) return;
    char line[1024];
    int print_prefix = 1;
    av_log_format_line2(avcl, level, fmt, args, line, sizeof line, &print_prefix);
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
    if (length > 0) current_sink(level, line);
}

void qd_avlog_install(qd_avlog_sink sink, int max_level) {
    current_sink = sink;
    current_max_level = max_level;
    av_log_set_callback(forward);
}
