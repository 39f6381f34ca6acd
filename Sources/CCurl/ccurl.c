#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_message[256];

static void *resolve(void *library, const char *name, int *missing) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL && *missing == 0) {
        *missing = 1;
        snprintf(load_message, sizeof load_message, "libcurl lacks %s", name);
    }
    return symbol;
}

static void load(void) {
#if defined(__APPLE__)
    const char *names[] = {"libcurl.4.dylib", "libcurl.dylib", NULL};
#else
    const char *names[] = {"libcurl.so.4", "libcurl.so", NULL};
#endif
    void *library = NULL;
    for (int i = 0; names[i] != NULL && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        snprintf(load_message, sizeof load_message,
                 "cannot load libcurl (install libcurl4): %s", dlerror());
        return;
    }
    int missing = 0;
    *(void **)&api.global_init = resolve(library, "curl_global_init", &missing);
    *(void **)&api.easy_init = resolve(library, "curl_easy_init", &missing);
    *(void **)&api.easy_cleanup = resolve(library, "curl_easy_cleanup", &missing);
    *(void **)&api.easy_perform = resolve(library, "curl_easy_perform", &missing);
    *(void **)&api.easy_strerror = resolve(library, "curl_easy_strerror", &missing);
    *(void **)&api.easy_setopt = resolve(library, "curl_easy_setopt", &missing);
    *(void **)&api.easy_getinfo = resolve(library, "curl_easy_getinfo", &missing);
    *(void **)&api.slist_append = resolve(library, "curl_slist_append", &missing);
    *(void **)&api.slist_free_all = resolve(library, "curl_slist_free_all", &missing);
    *(void **)&api.multi_init = resolve(library, "curl_multi_init", &missing);
    *(void **)&api.multi_cleanup = resolve(library, "curl_multi_cleanup", &missing);
    *(void **)&api.multi_add_handle = resolve(library, "curl_multi_add_handle", &missing);
    *(void **)&api.multi_remove_handle = resolve(library, "curl_multi_remove_handle", &missing);
    *(void **)&api.multi_perform = resolve(library, "curl_multi_perform", &missing);
    *(void **)&api.multi_poll = resolve(library, "curl_multi_poll", &missing);
    *(void **)&api.multi_info_read = resolve(library, "curl_multi_info_read", &missing);
    *(void **)&api.multi_setopt = resolve(library, "curl_multi_setopt", &missing);
    if (missing) {
        return;
    }
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_message, sizeof load_message, "curl_global_init failed");
        return;
    }
    load_status = 0;
}

int ccurl_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *ccurl_load_error(void) { return load_message; }

CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                          size_t (*callback)(char *, size_t, size_t, void *)) {
    return api.easy_setopt(handle, option, callback);
}

// The bitmask options are deprecated in newer headers but are all an older libcurl knows.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static CURLcode restrict_protocols(CURL *handle, CURLoption names, CURLoption mask) {
    if (api.easy_setopt(handle, names, "http,https") == CURLE_OK) {
        return CURLE_OK;
    }
    return api.easy_setopt(handle, mask, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
}

CURLcode ccurl_easy_restrict_protocols(CURL *handle) {
    CURLcode code = restrict_protocols(handle, CURLOPT_PROTOCOLS_STR, CURLOPT_PROTOCOLS);
    if (code != CURLE_OK) {
        return code;
    }
    return restrict_protocols(handle, CURLOPT_REDIR_PROTOCOLS_STR, CURLOPT_REDIR_PROTOCOLS);
}
#pragma GCC diagnostic pop

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return api.easy_getinfo(handle, info, value);
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *value) {
    return api.slist_append(list, value);
}
void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLM *ccurl_multi_init(void) { return api.multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return api.multi_setopt(multi, option, value);
}
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) {
    return api.multi_add_handle(multi, handle);
}
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return api.multi_remove_handle(multi, handle);
}
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) {
    return api.multi_perform(multi, running);
}
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *numfds) {
    return api.multi_poll(multi, NULL, 0, timeout_ms, numfds);
}
int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = api.multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *handle = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
