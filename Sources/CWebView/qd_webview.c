// WPE WebKit off-screen, frames through wpebackend-fdo's shared-memory export (see qd_webview.h).
// Everything here runs on the main loop's thread (qd_web_run's caller).

#include "qd_webview.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server.h>
#include <wpe/webkit.h>
#include <wpe/fdo.h>
#include <wpe/unstable/fdo-shm.h>
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <sys/stat.h>

struct qd_web_view {
    WebKitWebView *web_view;
    struct wpe_view_backend_exportable_fdo *exportable;
    qd_web_view_callbacks callbacks;
    void *user;
    /// The page may paint once this is called (set after each exported frame, cleared by frame_complete).
    int awaiting_complete;
    /// Cancels the pings still out when the view goes.
    GCancellable *pings;
    /// The folder file: URLs must be in (its real path; NULL: no file: URL at all).
    char *file_root;
    /// The page's first load was committed: a load cut short after that (a script going elsewhere) is not
    /// the page failing.
    int committed;
    /// qd_web_view_free was called: WebKit may still export a frame before it lets the backend go.
    int closed;
};

static WebKitWebContext *shared_context;

static void serve_page_file(WebKitURISchemeRequest *request, gpointer data);

int qd_web_init(unsigned memory_limit_mib) {
    if (shared_context) return 0;
    if (!wpe_loader_init("libWPEBackend-fdo-1.0.so.1")) return -1;
    if (!wpe_fdo_initialize_shm()) return -2;
    WebKitWebsiteDataManager *data = webkit_website_data_manager_new_ephemeral();
    WebKitMemoryPressureSettings *pressure = webkit_memory_pressure_settings_new();
    if (memory_limit_mib > 0) {
        webkit_memory_pressure_settings_set_memory_limit(pressure, memory_limit_mib);
        // WebKit kills nothing unless told: above the whole limit the web process is stopped (its view is
        // told EXCEEDED_MEMORY_LIMIT); before that it frees what it can.
        // (Each threshold must stay above the one below it as it is set: from the top down.)
        webkit_memory_pressure_settings_set_kill_threshold(pressure, 1.0);
        webkit_memory_pressure_settings_set_strict_threshold(pressure, 0.8);
        webkit_memory_pressure_settings_set_conservative_threshold(pressure, 0.5);
        // Checked every second (the default is 30 s): a page allocating without end is stopped near the cap.
        webkit_memory_pressure_settings_set_poll_interval(pressure, 1.0);
    }
    shared_context = g_object_new(
        WEBKIT_TYPE_WEB_CONTEXT, "website-data-manager", data, "memory-pressure-settings", pressure, NULL);
    webkit_memory_pressure_settings_free(pressure);
    g_object_unref(data);
    if (!shared_context) return -3;
    webkit_web_context_set_cache_model(shared_context, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
    webkit_web_context_register_uri_scheme(shared_context, QD_WEB_PAGE_SCHEME, serve_page_file, NULL, NULL);
    // Only a page of the scheme may show its files: a page from the network cannot pull them in.
    webkit_security_manager_register_uri_scheme_as_display_isolated(
        webkit_web_context_get_security_manager(shared_context), QD_WEB_PAGE_SCHEME);
    return 0;
}

static void on_export_shm(void *data, struct wpe_fdo_shm_exported_buffer *buffer) {
    qd_web_view *view = data;
    struct wl_shm_buffer *shm = wpe_fdo_shm_exported_buffer_get_shm_buffer(buffer);
    if (shm && !view->closed) {
        wl_shm_buffer_begin_access(shm);
        view->callbacks.frame(
            view->user, wl_shm_buffer_get_data(shm), wl_shm_buffer_get_width(shm), wl_shm_buffer_get_height(shm),
            wl_shm_buffer_get_stride(shm));
        wl_shm_buffer_end_access(shm);
    }
    wpe_view_backend_exportable_fdo_dispatch_release_shm_exported_buffer(view->exportable, buffer);
    view->awaiting_complete = !view->closed;
}

static const struct wpe_view_backend_exportable_fdo_client exportable_client = {
    .export_shm_buffer = on_export_shm,
};

/// The real path of a queued-page: path (percent-escaped, as in its URL) when it is inside `root`; NULL
/// otherwise. Free it with free().
static char *page_file(const char *escaped_path, const char *root) {
    if (!escaped_path || !root) return NULL;
    char *path = g_uri_unescape_string(escaped_path, NULL);
    if (!path) return NULL;
    char *real = realpath(path, NULL);
    g_free(path);
    if (!real) return NULL;
    size_t length = strlen(root);
    if (strncmp(real, root, length) == 0 && real[length] == '/') return real;
    free(real);
    return NULL;
}

static int uri_is_allowed(const char *uri, const char *allowed_file_root) {
    if (g_str_has_prefix(uri, "http://") || g_str_has_prefix(uri, "https://") || g_str_has_prefix(uri, "about:")
        || g_str_has_prefix(uri, "data:") || g_str_has_prefix(uri, "blob:"))
        return 1;
    if (!g_str_has_prefix(uri, QD_WEB_PAGE_SCHEME ":///")) return 0;
    // The path alone: a page's query or fragment (hash routing) is not part of it.
    const char *start = uri + strlen(QD_WEB_PAGE_SCHEME "://");
    char *escaped = g_strndup(start, strcspn(start, "?#"));
    char *real = page_file(escaped, allowed_file_root);
    g_free(escaped);
    free(real);
    return real != NULL;
}

static gboolean on_decide_policy(WebKitWebView *web_view, WebKitPolicyDecision *decision, WebKitPolicyDecisionType type,
                                 gpointer data) {
    (void)web_view;
    if (type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
        webkit_policy_decision_ignore(decision);
        return TRUE;
    }
    if (type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION) {
        WebKitNavigationAction *action =
            webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
        const char *uri = webkit_uri_request_get_uri(webkit_navigation_action_get_request(action));
        qd_web_view *view = data;
        if (!uri || !uri_is_allowed(uri, view->file_root)) {
            webkit_policy_decision_ignore(decision);
            return TRUE;
        }
    }
    return FALSE;
}

static void on_load_changed(WebKitWebView *web_view, WebKitLoadEvent event, gpointer data) {
    qd_web_view *view = data;
    if (event == WEBKIT_LOAD_COMMITTED) {
        view->committed = 1;
        int status = 0;
        WebKitWebResource *resource = webkit_web_view_get_main_resource(web_view);
        WebKitURIResponse *response = resource ? webkit_web_resource_get_response(resource) : NULL;
        if (response) status = (int)webkit_uri_response_get_status_code(response);
        view->callbacks.load(view->user, QD_WEB_COMMITTED, status, "");
    } else if (event == WEBKIT_LOAD_FINISHED) {
        view->callbacks.load(view->user, QD_WEB_FINISHED, 0, "");
    }
}

static gboolean on_load_failed(WebKitWebView *web_view, WebKitLoadEvent event, gchar *uri, GError *error,
                               gpointer data) {
    (void)web_view;
    (void)event;
    (void)uri;
    qd_web_view *view = data;
    // A load replaced by another (a script or a meta refresh going on at once) or refused by our policy is
    // not the page failing: what follows (or the page already there) is.
    // Before that, the same errors (a download, a redirect our policy refuses) are the page not loading.
    if (view->committed && error
        && (g_error_matches(error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_CANCELLED)
            || g_error_matches(error, WEBKIT_POLICY_ERROR, WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE)))
        return TRUE;
    view->callbacks.load(view->user, QD_WEB_FAILED, 0, error ? error->message : "the page did not load");
    return TRUE;
}

static void on_terminated(WebKitWebView *web_view, WebKitWebProcessTerminationReason reason, gpointer data) {
    (void)web_view;
    qd_web_view *view = data;
    int why = reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT ? QD_WEB_MEMORY
              : reason == WEBKIT_WEB_PROCESS_TERMINATED_BY_API  ? QD_WEB_TERMINATED
                                                                : QD_WEB_CRASHED;
    view->callbacks.ended(view->user, why);
}

static void on_title(GObject *object, GParamSpec *spec, gpointer data) {
    (void)spec;
    qd_web_view *view = data;
    const char *title = webkit_web_view_get_title(WEBKIT_WEB_VIEW(object));
    view->callbacks.title(view->user, title ? title : "");
}

// Dialogs never block: alert is dismissed, confirm and prompt answer "cancel", beforeunload lets the page go.
static gboolean on_script_dialog(WebKitWebView *web_view, WebKitScriptDialog *dialog, gpointer data) {
    (void)web_view;
    (void)data;
    if (webkit_script_dialog_get_dialog_type(dialog) == WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM)
        webkit_script_dialog_confirm_set_confirmed(dialog, TRUE);
    return TRUE;
}

static gboolean on_permission(WebKitWebView *web_view, WebKitPermissionRequest *request, gpointer data) {
    (void)web_view;
    (void)data;
    webkit_permission_request_deny(request);
    return TRUE;
}

// A password is never given: the page fails with that reason (its load, cancelled, says nothing more).
static gboolean on_authenticate(WebKitWebView *web_view, WebKitAuthenticationRequest *request, gpointer data) {
    (void)web_view;
    qd_web_view *view = data;
    view->callbacks.load(view->user, QD_WEB_FAILED, 401, "the server asked for a password (HTTP 401), which is not given");
    webkit_authentication_request_cancel(request);
    return TRUE;
}


static WebKitWebView *on_create(WebKitWebView *web_view, WebKitNavigationAction *action, gpointer data) {
    (void)web_view;
    (void)action;
    (void)data;
    return NULL;  // no pop-ups
}

static void backend_released(gpointer data) {
    qd_web_view *view = data;
    wpe_view_backend_exportable_fdo_destroy(view->exportable);
    free(view->file_root);
    g_free(view);
}

/// The MIME type of a page's file by its extension: the types a page needs right (a module script is refused
/// under another), without depending on shared-mime-info; NULL lets WebKit sniff.
static const char *page_file_type(const char *path) {
    static const char *types[][2] = {
        {".html", "text/html"}, {".htm", "text/html"}, {".css", "text/css"}, {".js", "text/javascript"},
        {".mjs", "text/javascript"}, {".json", "application/json"}, {".svg", "image/svg+xml"},
        {".png", "image/png"}, {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"}, {".gif", "image/gif"},
        {".webp", "image/webp"}, {".woff", "font/woff"}, {".woff2", "font/woff2"}, {".ttf", "font/ttf"},
        {".wasm", "application/wasm"}, {".txt", "text/plain"},
    };
    const char *dot = strrchr(path, '.');
    if (!dot) return NULL;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (g_ascii_strcasecmp(dot, types[i][0]) == 0) return types[i][1];
    return NULL;
}

/// queued-page: requests: the file, when it is a regular file inside the requesting view's folder; an error
/// otherwise. Opened without blocking (a FIFO in the folder never stalls the main loop) and checked on the
/// descriptor read from.
static void serve_page_file(WebKitURISchemeRequest *request, gpointer data) {
    (void)data;
    WebKitWebView *web_view = webkit_uri_scheme_request_get_web_view(request);
    qd_web_view *view = web_view ? g_object_get_data(G_OBJECT(web_view), "qd-view") : NULL;
    char *real = view && !view->closed ? page_file(webkit_uri_scheme_request_get_path(request), view->file_root) : NULL;
    int fd = real ? open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
    struct stat info;
    if (fd >= 0 && fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
        // A regular file reads without blocking either way; the stream owns the descriptor.
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        GInputStream *stream = g_unix_input_stream_new(fd, TRUE);
        webkit_uri_scheme_request_finish(request, stream, info.st_size, page_file_type(real));
        g_object_unref(stream);
    } else {
        if (fd >= 0) close(fd);
        GError *error = g_error_new_literal(G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "not a file in the page's folder");
        webkit_uri_scheme_request_finish_error(request, error);
        g_error_free(error);
    }
    free(real);
}

qd_web_view *qd_web_view_new(
    int width, int height, double zoom, const char *file_root, qd_web_view_callbacks callbacks, void *user) {
    if (!shared_context || width <= 0 || height <= 0) return NULL;
    qd_web_view *view = g_new0(qd_web_view, 1);
    view->file_root = file_root && *file_root ? realpath(file_root, NULL) : NULL;
    view->callbacks = callbacks;
    view->user = user;
    view->pings = g_cancellable_new();
    view->exportable = wpe_view_backend_exportable_fdo_create(&exportable_client, view, (uint32_t)width, (uint32_t)height);
    if (!view->exportable) {
        g_object_unref(view->pings);
        free(view->file_root);
        g_free(view);
        return NULL;
    }
    struct wpe_view_backend *backend = wpe_view_backend_exportable_fdo_get_view_backend(view->exportable);
    // WebKit lets the backend go when it is done with the view: the exportable and this struct go then.
    WebKitWebViewBackend *view_backend = webkit_web_view_backend_new(backend, backend_released, view);
    WebKitSettings *settings = webkit_settings_new_with_settings(
        "allow-file-access-from-file-urls", FALSE, "allow-universal-access-from-file-urls", FALSE,
        "allow-top-navigation-to-data-urls", FALSE, "enable-page-cache", FALSE, "enable-developer-extras", FALSE,
        "javascript-can-open-windows-automatically", FALSE, "enable-webaudio", FALSE, "enable-media-stream", FALSE,
        "enable-webrtc", FALSE, "enable-encrypted-media", FALSE, "media-playback-requires-user-gesture", FALSE, NULL);
    view->web_view = g_object_new(
        WEBKIT_TYPE_WEB_VIEW, "backend", view_backend, "web-context", shared_context, "settings", settings,
        "is-controlled-by-automation", FALSE, NULL);
    g_object_unref(settings);
    g_object_set_data(G_OBJECT(view->web_view), "qd-view", view);
    webkit_web_view_set_is_muted(view->web_view, TRUE);
    if (zoom > 0) webkit_web_view_set_zoom_level(view->web_view, zoom);
    wpe_view_backend_add_activity_state(
        backend, wpe_view_activity_state_visible | wpe_view_activity_state_focused | wpe_view_activity_state_in_window);
    g_signal_connect(view->web_view, "decide-policy", G_CALLBACK(on_decide_policy), view);
    g_signal_connect(view->web_view, "load-changed", G_CALLBACK(on_load_changed), view);
    g_signal_connect(view->web_view, "load-failed", G_CALLBACK(on_load_failed), view);
    g_signal_connect(view->web_view, "web-process-terminated", G_CALLBACK(on_terminated), view);
    g_signal_connect(view->web_view, "notify::title", G_CALLBACK(on_title), view);
    g_signal_connect(view->web_view, "script-dialog", G_CALLBACK(on_script_dialog), view);
    g_signal_connect(view->web_view, "permission-request", G_CALLBACK(on_permission), view);
    g_signal_connect(view->web_view, "authenticate", G_CALLBACK(on_authenticate), view);
    g_signal_connect(view->web_view, "create", G_CALLBACK(on_create), view);
    return view;
}

void qd_web_view_load(qd_web_view *view, const char *uri) {
    if (!view) return;
    webkit_web_view_load_uri(view->web_view, uri);
}

void qd_web_view_reload(qd_web_view *view) {
    if (!view) return;
    webkit_web_view_reload(view->web_view);
}

void qd_web_view_frame_complete(qd_web_view *view) {
    if (!view) return;
    if (!view->awaiting_complete) return;
    view->awaiting_complete = 0;
    wpe_view_backend_exportable_fdo_dispatch_frame_complete(view->exportable);
}


typedef struct {
    qd_web_view *view;
    unsigned token;
} ping_request;

static void on_ping_answer(GObject *object, GAsyncResult *result, gpointer data) {
    ping_request *request = data;
    WebKitJavascriptResult *answer = webkit_web_view_run_javascript_finish(WEBKIT_WEB_VIEW(object), result, NULL);
    // A cancelled ping (its view freed) has no answer: the view is not touched.
    if (answer) {
        webkit_javascript_result_unref(answer);
        request->view->callbacks.pong(request->view->user, request->token);
    }
    g_free(request);
}

void qd_web_view_ping(qd_web_view *view, unsigned token) {
    if (!view) return;
    ping_request *request = g_new0(ping_request, 1);
    request->view = view;
    request->token = token;
    webkit_web_view_run_javascript(view->web_view, "1", view->pings, on_ping_answer, request);
}

const char *qd_web_view_title(qd_web_view *view) {
    const char *title = view ? webkit_web_view_get_title(view->web_view) : NULL;
    return title ? title : "";
}

void qd_web_view_terminate(qd_web_view *view) {
    if (!view) return;
    webkit_web_view_terminate_web_process(view->web_view);
}

void qd_web_view_free(qd_web_view *view) {
    if (!view) return;
    g_cancellable_cancel(view->pings);
    g_object_unref(view->pings);
    g_signal_handlers_disconnect_by_data(view->web_view, view);
    view->closed = 1;
    g_object_unref(view->web_view);  // backend_released frees the rest
}

typedef struct {
    void (*line)(void *user, const char *text);
    void *user;
    GString *pending;
    GMainLoop *loop;
} line_reader;

static gboolean on_input(gint fd, GIOCondition condition, gpointer data) {
    line_reader *reader = data;
    char buffer[65536];
    ssize_t count = (condition & G_IO_IN) ? read(fd, buffer, sizeof buffer) : 0;
    if (count <= 0) {
        g_main_loop_quit(reader->loop);
        return G_SOURCE_REMOVE;
    }
    g_string_append_len(reader->pending, buffer, count);
    char *newline;
    while ((newline = memchr(reader->pending->str, '\n', reader->pending->len))) {
        size_t length = (size_t)(newline - reader->pending->str);
        reader->pending->str[length] = 0;
        reader->line(reader->user, reader->pending->str);
        g_string_erase(reader->pending, 0, (gssize)length + 1);
    }
    return G_SOURCE_CONTINUE;
}

void qd_web_run(int fd, void (*line)(void *user, const char *text), void *user) {
    line_reader reader = {line, user, g_string_new(NULL), g_main_loop_new(NULL, FALSE)};
    g_unix_fd_add(fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_input, &reader);
    g_main_loop_run(reader.loop);
    g_main_loop_unref(reader.loop);
    g_string_free(reader.pending, TRUE);
}

typedef struct {
    void (*fire)(void *user);
    void *user;
} timer_call;

static gboolean on_timer(gpointer data) {
    timer_call *call = data;
    call->fire(call->user);
    g_free(call);
    return G_SOURCE_REMOVE;
}

void qd_web_after(unsigned ms, void (*fire)(void *user), void *user) {
    timer_call *call = g_new0(timer_call, 1);
    call->fire = fire;
    call->user = user;
    g_timeout_add(ms, on_timer, call);
}
