#ifndef CCURL_H
#define CCURL_H

// Typed, non-variadic access to libcurl. libcurl is not linked: ccurl_load() opens it with
// dlopen on first use, so programs that never reach the network never pay for loading it and
// its dependent libraries. Every other function here requires a successful ccurl_load().
#include <curl/curl.h>

/// Opens libcurl and runs curl_global_init once; thread-safe. Returns 0 on success, otherwise
/// non-zero with a message available from ccurl_load_error().
int ccurl_load(void);
const char *ccurl_load_error(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                          size_t (*callback)(char *, size_t, size_t, void *));

/// Restricts transfers and redirects to http and https: CURLOPT_PROTOCOLS_STR and
/// CURLOPT_REDIR_PROTOCOLS_STR, or the older bitmask options on a libcurl before 7.85.
CURLcode ccurl_easy_restrict_protocols(CURL *handle);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *value);
void ccurl_slist_free_all(struct curl_slist *list);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *numfds);
/// The next finished transfer: returns 1 and fills handle and result, or 0 when none is left.
int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result);

#endif
