// Sending one e-mail through an SMTP server with libcurl (its variadic curl_easy_setopt cannot be called
// from Swift): the fleet console's alerts by mail.
#ifndef QD_MAIL_H
#define QD_MAIL_H

#include <stddef.h>

typedef struct {
    const char *url;        // smtp://host:port (STARTTLS when offered, or required: see require_tls) or smtps://
    const char *username;   // NULL: no AUTH
    const char *password;
    const char *from;       // the envelope sender, e.g. <alerts@example.net>
    const char *const *recipients;
    size_t recipient_count;
    const char *message;    // the whole message: headers, a blank line, the body (CRLF line ends)
    size_t message_length;
    int require_tls;        // 1: refuse to send without TLS (STARTTLS or smtps)
    long timeout_seconds;
    const char *ca_file;    // NULL: the system's trust store
} qd_mail;

/// 0 when sent; otherwise a libcurl error code, with its text in `error` (at least 256 bytes).
int qd_mail_send(const qd_mail *mail, char *error, size_t error_size);

#endif
