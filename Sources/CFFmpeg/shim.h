// What Swift cannot import from FFmpeg's headers (function-like macros, compound literals), as inline functions.
#ifndef QUEUED_CFFMPEG_SHIM_H
#define QUEUED_CFFMPEG_SHIM_H
#include <errno.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libavutil/pixdesc.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

static inline int qd_averror(int e) { return AVERROR(e); }
static inline int qd_averror_eof(void) { return AVERROR_EOF; }
static inline int qd_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int qd_averror_exit(void) { return AVERROR_EXIT; }
static inline int64_t qd_nopts(void) { return AV_NOPTS_VALUE; }
static inline AVRational qd_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline AVChannelLayout qd_layout_stereo(void) { AVChannelLayout l = AV_CHANNEL_LAYOUT_STEREO; return l; }
static inline AVChannelLayout qd_layout_mono(void) { AVChannelLayout l = AV_CHANNEL_LAYOUT_MONO; return l; }
#endif
