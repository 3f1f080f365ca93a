/*
 * json.c: the JSON the two formats need: a strict parser for table lines and a writer
 * for the trace log.
 *
 * RATIONALE: the interposer is loaded into every rank of somebody else's program, so it
 * carries no dependency beyond MPI and libc. The parser is strict RFC 8259 (what
 * Python's json module accepts, less NaN, Infinity, lone surrogates and \u0000, which the
 * Python reader refuses too) so both readers refuse the same lines; its recursion is
 * bounded by IOT_JSON_MAX_DEPTH, checked before parsing.
 */
#include "reader.h"

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
    char *data = iot__realloc(b->data, cap);
    if (!data) {
        b->failed = 1;
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

/*
 * RATIONALE: the trace log is written with thousands of these calls at a file's close
 * (a row per collective call, up to the record cap), on the program's time. Formatting
 * straight into the free space needs one pass when the text fits, which it nearly always
 * does (the buffer doubles); only text that did not fit is formatted again after the buffer
 * grew. The bytes written are those of a measuring pass followed by a writing pass.
 */
void iot__buf_printf(struct iot_buf *b, const char *fmt, ...) {
    if (b->failed)
        return;
    /* cap > len whenever data is set: the byte after the text holds its NUL. */
    size_t room = b->data ? b->cap - b->len : 0;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(b->data ? b->data + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (need >= 0 && (size_t)need < room) {
        b->len += (size_t)need;
        return;
    }
    if (b->data)
        b->data[b->len] = '\0'; /* a cut attempt leaves nothing behind */
    if (need < 0 || buf_grow(b, (size_t)need) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)need + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)need;
}

void iot__buf_append(struct iot_buf *b, const char *data, size_t n) {
    if (buf_grow(b, n) != 0)
        return;
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

/* RATIONALE: file names repeat in every row of the trace; the characters that need no
 * escape are copied a run at a time. */
void iot__buf_json_string(struct iot_buf *b, const char *s) {
    iot__buf_append(b, "\"", 1);
    const char *run = s, *c = s;
    for (; *c; c++) {
        unsigned char u = (unsigned char)*c;
        char esc[8];
        if (u == '"' || u == '\\')
            snprintf(esc, sizeof esc, "\\%c", u);
        else if (u == '\n')
            snprintf(esc, sizeof esc, "\\n");
        else if (u == '\t')
            snprintf(esc, sizeof esc, "\\t");
        else if (u < 0x20 || u == 0x7f)
            snprintf(esc, sizeof esc, "\\u%04x", u);
        else
            continue;
        iot__buf_append(b, run, (size_t)(c - run));
        iot__buf_append(b, esc, strlen(esc));
        run = c + 1;
    }
    iot__buf_append(b, run, (size_t)(c - run));
    iot__buf_append(b, "\"", 1);
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

/* ---------------------------------------------------------------- parser */

int iot__json_too_deep(const char *text, size_t len) {
    int depth = 0, in_string = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '{' || c == '[') {
            if (++depth > IOT_JSON_MAX_DEPTH)
                return 1;
        } else if ((c == '}' || c == ']') && depth > 0) {
            depth--;
        }
    }
    return 0;
}

struct cursor {
    const char *p, *end;
    int depth;
    int duplicate; /* an object repeated a key: reported once the whole text is valid */
};

static void skip_space(struct cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n'))
        c->p++;
}

static int hex4(const char *p, unsigned *out) {
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

static void put_utf8(struct iot_buf *b, unsigned cp) {
    char out[4];
    size_t n;
    if (cp < 0x80) {
        out[0] = (char)cp, n = 1;
    } else if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6)), out[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    } else if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12)), out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    } else {
        out[0] = (char)(0xF0 | (cp >> 18)), out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), out[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    }
    iot__buf_append(b, out, n);
}

/* Reads a string after its opening quote into *out (malloc'd). */
static int parse_string(struct cursor *c, char **out) {
    struct iot_buf b = {0};
    iot__buf_append(&b, "", 0);
    int rc = IOT_JSON_SYNTAX;
    while (c->p < c->end && *c->p != '"') {
        unsigned char ch = (unsigned char)*c->p++;
        if (ch < 0x20)
            goto fail;
        if (ch != '\\') {
            iot__buf_append(&b, (const char *)&ch, 1);
            continue;
        }
        if (c->p >= c->end)
            goto fail;
        char e = *c->p++;
        const char *plain = strchr("\"\\/bfnrt", e);
        if (plain && e != '\0') {
            static const char decoded[] = "\"\\/\b\f\n\r\t";
            iot__buf_append(&b, &decoded[plain - "\"\\/bfnrt"], 1);
            continue;
        }
        unsigned cp = 0, lo = 0;
        if (e != 'u' || c->end - c->p < 4 || hex4(c->p, &cp) != 0)
            goto fail;
        c->p += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            goto fail; /* a low surrogate alone */
        if (cp >= 0xD800 && cp < 0xDC00) {
            if (c->end - c->p < 6 || c->p[0] != '\\' || c->p[1] != 'u' ||
                hex4(c->p + 2, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
                goto fail; /* a high surrogate alone */
            c->p += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        if (cp == 0)
            goto fail; /* a NUL cannot live in a C string: refused by both readers */
        put_utf8(&b, cp);
    }
    if (c->p >= c->end)
        goto fail;
    c->p++;
    if (b.failed) {
        rc = IOT_JSON_NOMEM;
        goto fail;
    }
    *out = b.data;
    return IOT_JSON_OK;
fail:
    iot__buf_free(&b);
    return rc;
}

static int is_digit(char ch) {
    return ch >= '0' && ch <= '9';
}

/* Skips one or more digits; -1 when there is none. */
static int skip_digits(struct cursor *c) {
    if (c->p >= c->end || !is_digit(*c->p))
        return -1;
    while (c->p < c->end && is_digit(*c->p))
        c->p++;
    return 0;
}

/* Reads a number; keeps its text and whether it is an integer. */
static int parse_number(struct cursor *c, struct iot_json *v) {
    const char *start = c->p;
    if (c->p < c->end && *c->p == '-')
        c->p++;
    if (c->p < c->end && *c->p == '0')
        c->p++; /* no leading zeros: "01" stops after the 0 and fails later */
    else if (skip_digits(c) != 0)
        return IOT_JSON_SYNTAX;
    v->integer = 1;
    if (c->p < c->end && *c->p == '.') {
        c->p++;
        if (skip_digits(c) != 0)
            return IOT_JSON_SYNTAX;
        v->integer = 0;
    }
    if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
        c->p++;
        if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
            c->p++;
        if (skip_digits(c) != 0)
            return IOT_JSON_SYNTAX;
        v->integer = 0;
    }
    size_t n = (size_t)(c->p - start);
    v->text = iot__malloc(n + 1);
    if (!v->text)
        return IOT_JSON_NOMEM;
    memcpy(v->text, start, n);
    v->text[n] = '\0';
    v->type = IOT_JSON_NUMBER;
    return IOT_JSON_OK;
}

static int parse_value(struct cursor *c, struct iot_json *v);

/* Appends an item (and its key, for objects) to a container being built. */
static int add_item(struct iot_json *v, char *key, const struct iot_json *item, int *cap) {
    if (v->n == *cap) {
        int grown = *cap ? *cap * 2 : 4;
        struct iot_json *items = iot__realloc(v->items, (size_t)grown * sizeof *items);
        if (!items)
            return IOT_JSON_NOMEM;
        v->items = items;
        if (v->type == IOT_JSON_OBJECT) {
            char **keys = iot__realloc(v->keys, (size_t)grown * sizeof *keys);
            if (!keys)
                return IOT_JSON_NOMEM;
            v->keys = keys;
        }
        *cap = grown;
    }
    v->items[v->n] = *item;
    if (v->type == IOT_JSON_OBJECT)
        v->keys[v->n] = key;
    v->n++;
    return IOT_JSON_OK;
}

static int parse_container(struct cursor *c, struct iot_json *v, char close) {
    int cap = 0;
    v->type = close == '}' ? IOT_JSON_OBJECT : IOT_JSON_ARRAY;
    if (++c->depth > IOT_JSON_MAX_DEPTH)
        return IOT_JSON_SYNTAX; /* iot__json_too_deep said so first; this is a backstop */
    skip_space(c);
    if (c->p < c->end && *c->p == close) {
        c->p++;
        c->depth--;
        return IOT_JSON_OK;
    }
    for (;;) {
        char *key = NULL;
        skip_space(c);
        if (close == '}') {
            if (c->p >= c->end || *c->p != '"')
                return IOT_JSON_SYNTAX;
            c->p++;
            int rc = parse_string(c, &key);
            if (rc != IOT_JSON_OK)
                return rc;
            skip_space(c);
            if (c->p >= c->end || *c->p != ':') {
                free(key);
                return IOT_JSON_SYNTAX;
            }
            c->p++;
        }
        struct iot_json item = {0};
        int rc = parse_value(c, &item);
        if (rc == IOT_JSON_OK)
            rc = add_item(v, key, &item, &cap);
        if (rc != IOT_JSON_OK) {
            free(key);
            iot__json_free(&item);
            return rc;
        }
        skip_space(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p >= c->end || *c->p != close)
            return IOT_JSON_SYNTAX;
        c->p++;
        break;
    }
    c->depth--;
    /* A repeated key is only noted: text that is not valid JSON is a syntax error first
     * (table_rules.def puts json before duplicate_key), wherever the repeat is. */
    for (int i = 0; close == '}' && !c->duplicate && i < v->n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(v->keys[i], v->keys[j]) == 0)
                c->duplicate = 1;
    return IOT_JSON_OK;
}

static int parse_literal(struct cursor *c, const char *word, enum iot_json_type type,
                         struct iot_json *v) {
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
        return IOT_JSON_SYNTAX;
    c->p += n;
    v->type = type;
    return IOT_JSON_OK;
}

static int parse_value(struct cursor *c, struct iot_json *v) {
    skip_space(c);
    if (c->p >= c->end)
        return IOT_JSON_SYNTAX;
    switch (*c->p) {
    case '{':
        c->p++;
        return parse_container(c, v, '}');
    case '[':
        c->p++;
        return parse_container(c, v, ']');
    case '"':
        c->p++;
        v->type = IOT_JSON_STRING;
        return parse_string(c, &v->text);
    case 't':
        return parse_literal(c, "true", IOT_JSON_TRUE, v);
    case 'f':
        return parse_literal(c, "false", IOT_JSON_FALSE, v);
    case 'n':
        return parse_literal(c, "null", IOT_JSON_NULL, v);
    default:
        return parse_number(c, v);
    }
}

int iot__json_parse(const char *text, size_t len, struct iot_json *out) {
    struct cursor c = {text, text + len, 0, 0};
    memset(out, 0, sizeof *out);
    int rc = parse_value(&c, out);
    skip_space(&c);
    if (rc == IOT_JSON_OK && c.p != c.end)
        rc = IOT_JSON_SYNTAX;
    if (rc == IOT_JSON_OK && c.duplicate)
        rc = IOT_JSON_DUPLICATE;
    if (rc != IOT_JSON_OK)
        iot__json_free(out);
    return rc;
}

void iot__json_free(struct iot_json *v) {
    for (int i = 0; i < v->n; i++) {
        iot__json_free(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
    memset(v, 0, sizeof *v);
}
