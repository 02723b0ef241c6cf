// See qd_mail.h. One easy handle per message: alerts are rare, and a handle of our own keeps no state
// between them (a server that went away is found on the next message, not by a stale connection).
#include "qd_mail.h"

#include <curl/curl.h>
#include <pthread.h>
#include <string.h>

typedef struct {
    const char *data;
    size_t left;
} reader;

static size_t read_message(char *buffer, size_t size, size_t count, void *user) {
    reader *r = user;
    size_t room = size * count;
    size_t n = r->left < room ? r->left : room;
    memcpy(buffer, r->data, n);
    r->data += n;
    r->left -= n;
    return n;
}

static pthread_once_t initialised = PTHREAD_ONCE_INIT;
static void initialise(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

int qd_mail_send(const qd_mail *mail, char *error, size_t error_size) {
    pthread_once(&initialised, initialise);
    char message[CURL_ERROR_SIZE] = "";
    CURL *curl = curl_easy_init();
    if (!curl) {
        snprintf(error, error_size, "libcurl could not make a handle");
        return CURLE_FAILED_INIT;
    }
    struct curl_slist *recipients = NULL;
    for (size_t i = 0; i < mail->recipient_count; i++) recipients = curl_slist_append(recipients, mail->recipients[i]);
    reader r = {mail->message, mail->message_length};
    curl_easy_setopt(curl, CURLOPT_URL, mail->url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    // With a password to send, TLS is required: a stripped STARTTLS must not put it on the wire in clear.
    int tls_required = mail->require_tls || mail->username;
    curl_easy_setopt(curl, CURLOPT_USE_SSL, tls_required ? (long)CURLUSESSL_ALL : (long)CURLUSESSL_TRY);
    if (mail->username) curl_easy_setopt(curl, CURLOPT_USERNAME, mail->username);
    if (mail->password) curl_easy_setopt(curl, CURLOPT_PASSWORD, mail->password);
    if (mail->ca_file) curl_easy_setopt(curl, CURLOPT_CAINFO, mail->ca_file);
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, mail->from);
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_message);
    curl_easy_setopt(curl, CURLOPT_READDATA, &r);
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, mail->timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, message);
    CURLcode rc = curl_easy_perform(curl);
    if (rc != CURLE_OK) snprintf(error, error_size, "%s", message[0] ? message : curl_easy_strerror(rc));
    curl_slist_free_all(recipients);
    curl_easy_cleanup(curl);
    return (int)rc;
}
