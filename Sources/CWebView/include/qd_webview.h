// queued-webview's C boundary to WPE WebKit: one off-screen web view per page, its frames exported through
// wpebackend-fdo's shared-memory path, GLib's main loop with a line-reading input and timers. Swift keeps
// the decisions (what to load, when a frame is wanted, what a failure means); this file owns the GObjects.
#ifndef QD_WEBVIEW_H
#define QD_WEBVIEW_H

#include <stdint.h>

typedef struct qd_web_view qd_web_view;

enum qd_web_load_event { QD_WEB_COMMITTED = 0, QD_WEB_FINISHED = 1, QD_WEB_FAILED = 2 };
enum qd_web_end_reason { QD_WEB_CRASHED = 0, QD_WEB_MEMORY = 1, QD_WEB_TERMINATED = 2 };

typedef struct {
    /// A painted frame, ARGB8888 (bytes B,G,R,A), valid during the call only: its buffer goes back to the
    /// web process right after (a buffer kept would dangle once that process dies).
    void (*frame)(void *user, const uint8_t *pixels, int width, int height, int stride);
    /// Loading: committed with the main resource's HTTP status (0 for file:), finished, or failed with a message.
    void (*load)(void *user, int event, int status, const char *message);
    /// The page's web process ended (qd_web_end_reason).
    void (*ended)(void *user, int reason);
    void (*title)(void *user, const char *title);
    /// The answer to qd_web_view_ping: the page's script engine came back to its event loop.
    void (*pong)(void *user, unsigned token);
} qd_web_view_callbacks;

/// Once per process: the WPE backend (shared memory) and a context with no profile on disk whose web
/// processes are killed above `memory_limit_mib`. 0 on success.
int qd_web_init(unsigned memory_limit_mib);

/// Local pages are loaded as queued-page:///PATH, a scheme this file serves from the view's `file_root`
/// only: a page (and anything it loads: frames, images, scripts) reaches no file outside its folder, and
/// file: URLs are refused altogether (a page of this scheme is not local to WebKit).
#define QD_WEB_PAGE_SCHEME "queued-page"

/// A view laid out at width×height CSS pixels times `zoom`, visible, muted, with no dialogs, permissions or
/// pop-ups, that may go to http(s) and to queued-page: URLs inside `file_root` only (NULL or "": none).
/// NULL on failure.
qd_web_view *qd_web_view_new(
    int width, int height, double zoom, const char *file_root, qd_web_view_callbacks callbacks, void *user);
void qd_web_view_load(qd_web_view *view, const char *uri);
void qd_web_view_reload(qd_web_view *view);
/// The page may paint its next frame (the export's frame-complete; delaying it is how the rate is capped).
void qd_web_view_frame_complete(qd_web_view *view);
/// Runs a trivial script; its answer comes as pong(token). A page whose script never yields never answers.
void qd_web_view_ping(qd_web_view *view, unsigned token);
/// The page's title now ("" without one); valid until the next call into WebKit.
const char *qd_web_view_title(qd_web_view *view);
/// Kills the view's web process (a hung page); `ended` follows with QD_WEB_TERMINATED.
void qd_web_view_terminate(qd_web_view *view);
void qd_web_view_free(qd_web_view *view);

/// Runs GLib's main loop, calling `line` with each line read from `fd` (without its newline) until it ends.
void qd_web_run(int fd, void (*line)(void *user, const char *text), void *user);
/// Calls `fire` once after `ms` milliseconds, from the main loop.
void qd_web_after(unsigned ms, void (*fire)(void *user), void *user);

#endif
