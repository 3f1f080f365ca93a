/*
 * json.c: the JSON the two formats need, and no more.
 *
 * RATIONALE: the interposer is loaded into every rank of somebody else's
 * program, so it carries no dependency beyond MPI and libc; the tuning table
 * needs objects, strings and integers only, and the trace log is written
 * with printf and one escaping routine.
 */
#include "iot.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- writer */

static int buf_grow(struct iot_buf *b, size_t extra) {
    if (b->failed)
        return -1;
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *data = realloc(b->data, cap);
    if (!data) {
        b->failed = 1;
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

void iot__buf_printf(struct iot_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0 || buf_grow(b, (size_t)need) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)need + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)need;
}

void iot__buf_json_string(struct iot_buf *b, const char *s) {
    iot__buf_printf(b, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            iot__buf_printf(b, "\\%c", *c);
        else if (*c == '\n')
            iot__buf_printf(b, "\\n");
        else if (*c == '\t')
            iot__buf_printf(b, "\\t");
        else if (*c < 0x20)
            iot__buf_printf(b, "\\u%04x", *c);
        else
            iot__buf_printf(b, "%c", *c);
    }
    iot__buf_printf(b, "\"");
}

void iot__buf_json_kv(struct iot_buf *b, const struct iot_kv *kv) {
    iot__buf_printf(b, "{");
    for (int i = 0; i < kv->n; i++) {
        iot__buf_printf(b, "%s", i ? ", " : "");
        iot__buf_json_string(b, kv->keys[i]);
        iot__buf_printf(b, ": ");
        iot__buf_json_string(b, kv->vals[i]);
    }
    iot__buf_printf(b, "}");
}

void iot__buf_free(struct iot_buf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

/* ---------------------------------------------------------------- reader */

int iot__json_peek(struct iot_json *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n'))
        j->p++;
    return j->p < j->end ? (unsigned char)*j->p : -1;
}

int iot__json_expect(struct iot_json *j, char c) {
    if (iot__json_peek(j) != (unsigned char)c)
        return -1;
    j->p++;
    return 0;
}

static int json_hex4(const char *p, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static void json_utf8(struct iot_buf *b, unsigned cp) {
    if (cp < 0x80) {
        iot__buf_printf(b, "%c", (char)cp);
    } else if (cp < 0x800) {
        iot__buf_printf(b, "%c%c", (char)(0xC0 | (cp >> 6)), (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        iot__buf_printf(b, "%c%c%c", (char)(0xE0 | (cp >> 12)), (char)(0x80 | ((cp >> 6) & 0x3F)),
                        (char)(0x80 | (cp & 0x3F)));
    } else {
        iot__buf_printf(b, "%c%c%c%c", (char)(0xF0 | (cp >> 18)),
                        (char)(0x80 | ((cp >> 12) & 0x3F)), (char)(0x80 | ((cp >> 6) & 0x3F)),
                        (char)(0x80 | (cp & 0x3F)));
    }
}

int iot__json_string(struct iot_json *j, char **out) {
    if (iot__json_expect(j, '"') != 0)
        return -1;
    struct iot_buf b = {0};
    iot__buf_printf(&b, "%s", "");
    while (j->p < j->end && *j->p != '"') {
        unsigned char c = (unsigned char)*j->p++;
        if (c < 0x20)
            goto fail;
        if (c != '\\') {
            iot__buf_printf(&b, "%c", c);
            continue;
        }
        if (j->p >= j->end)
            goto fail;
        char e = *j->p++;
        const char *plain = strchr("\"\\/bfnrt", e);
        if (plain && e != 'u') {
            static const char decoded[] = "\"\\/\b\f\n\r\t";
            iot__buf_printf(&b, "%c", decoded[plain - "\"\\/bfnrt"]);
            continue;
        }
        unsigned cp = 0, lo = 0;
        if (e != 'u' || j->end - j->p < 4 || json_hex4(j->p, &cp) != 0)
            goto fail;
        j->p += 4;
        if (cp >= 0xD800 && cp < 0xDC00) {
            if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
                json_hex4(j->p + 2, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
                goto fail;
            j->p += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        if (cp == 0)
            goto fail;
        json_utf8(&b, cp);
    }
    if (j->p >= j->end || b.failed)
        goto fail;
    j->p++;
    *out = b.data;
    return 0;
fail:
    iot__buf_free(&b);
    return -1;
}

int iot__json_integer(struct iot_json *j, long long *out) {
    int c = iot__json_peek(j);
    if (c != '-' && (c < '0' || c > '9'))
        return -1;
    const char *start = j->p;
    if (*j->p == '-')
        j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9')
        return -1;
    long long v = 0;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
        if (v > (long long)9e17)
            return -1;
        v = v * 10 + (*j->p++ - '0');
    }
    if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E'))
        return -1;
    *out = *start == '-' ? -v : v;
    return 0;
}
