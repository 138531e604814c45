// libcurl's entry points, loaded with dlopen at first use (curl_api.cpp), so that a run that reads no
// Hub name does not pay the dynamic loader for libcurl and its ~30 libraries (bench/README.md).
#pragma once

// The header gives the types and constants only; with GCC its type-checking macros would wrap the
// calls below, which go through pointers instead.
#ifndef CURL_DISABLE_TYPECHECK
#define CURL_DISABLE_TYPECHECK
#endif
#include <curl/curl.h>
#include <string>

namespace llmplan::detail {

struct curl_functions {
    CURLcode (*global_init)(long flags)                            = nullptr;
    CURL* (*easy_init)()                                           = nullptr;
    void (*easy_reset)(CURL* curl)                                 = nullptr;
    void (*easy_cleanup)(CURL* curl)                               = nullptr;
    CURLcode (*easy_setopt)(CURL* curl, CURLoption option, ...)    = nullptr;
    CURLcode (*easy_getinfo)(CURL* curl, CURLINFO info, ...)       = nullptr;
    CURLcode (*easy_perform)(CURL* curl)                           = nullptr;
    const char* (*easy_strerror)(CURLcode code)                    = nullptr;
    curl_slist* (*slist_append)(curl_slist* list, const char* str) = nullptr;
    void (*slist_free_all)(curl_slist* list)                       = nullptr;
};

/// libcurl's functions, loaded (and curl_global_init run) once, thread-safe; nullptr when libcurl
/// cannot be loaded, with the reason in `why` (a sentence naming the library and the package).
const curl_functions* load_curl(std::string* why = nullptr);

} // namespace llmplan::detail
