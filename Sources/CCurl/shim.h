#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
// one typed wrapper per argument kind we pass.
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_write_function(CURL *handle,
        size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode ccurl_setopt_xferinfo_function(CURL *handle,
        int (*callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

// Only http and https, on every libcurl we build against: CURLOPT_PROTOCOLS_STR came in 7.85 and
// deprecated the bitmask, which older releases (Ubuntu 22.04 ships 7.81) still need.
static inline CURLoption ccurl_protocols_option(void) {
#if LIBCURL_VERSION_NUM >= 0x075500
    return CURLOPT_PROTOCOLS_STR;
#else
    return CURLOPT_PROTOCOLS;
#endif
}
static inline CURLcode ccurl_allow_only_http(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

// The option's name ("CONNECTTIMEOUT") for error messages; libcurl knows it from 7.73 on.
static inline const char *ccurl_option_name(CURLoption option) {
#if LIBCURL_VERSION_NUM >= 0x074900
    const struct curl_easyoption *known = curl_easy_option_by_id(option);
    return known ? known->name : NULL;
#else
    (void)option;
    return NULL;
#endif
}

// SMTP (Sources/WishlistCore/Mail): the message is read from a callback, and the server's
// replies are read from the debug callback, the only place libcurl shows them.
static inline CURLcode ccurl_setopt_read_function(CURL *handle,
        size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}
static inline CURLcode ccurl_setopt_debug_function(CURL *handle,
        int (*callback)(CURL *, curl_infotype, char *, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}
static inline CURLcode ccurl_allow_only_smtp(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
#else
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_SMTP | CURLPROTO_SMTPS));
#endif
}

// Covers (Sources/WishlistCore/Covers): the address libcurl is about to connect to, seen before
// the socket exists, for every address a name resolves to and every redirect's.
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

static inline CURLcode ccurl_setopt_opensocket_function(CURL *handle,
        curl_socket_t (*callback)(void *, curlsocktype, struct curl_sockaddr *)) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}
// Copies the address (4 bytes for IPv4, 16 for IPv6) into `bytes` and its port into `port`;
// returns how many bytes, or 0 for any other kind of address.
static inline int ccurl_connect_address(const struct curl_sockaddr *address, unsigned char bytes[16], int *port) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)&address->addr;
        memcpy(bytes, &v4->sin_addr, 4);
        *port = ntohs(v4->sin_port);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&address->addr;
        memcpy(bytes, &v6->sin6_addr, 16);
        *port = ntohs(v6->sin6_port);
        return 16;
    }
    return 0;
}
// The socket libcurl would have opened itself, not inherited by any process the server starts.
static inline curl_socket_t ccurl_open_socket(const struct curl_sockaddr *address) {
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}
