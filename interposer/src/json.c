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

/* Makes room for extra more bytes and a NUL; 0, or -1 (no memory, or failed before). */
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
    /* A failed buffer has cap 0 or holds its text: the test sends it to buf_grow, which
     * refuses. (Checked here first: a close appends many short pieces.) */
    if ((b->failed || b->len + n + 1 > b->cap) && buf_grow(b, n) != 0)
        return;
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void iot__buf_puts(struct iot_buf *b, const char *text) {
    iot__buf_append(b, text, strlen(text));
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

/*
 * The digits of a double the way printf's "%.9g" writes them, exactly, without printf.
 * RATIONALE: a traced file's close writes a row per kept collective call (up to the record
 * cap) with three real fields, on the program's time, and glibc's printf spends about
 * 2,500 instructions on each (multi-precision arithmetic). Here the value m * 2^e is
 * scaled by 10^k in 128-bit integers, which is exact, and rounded half to even, as printf
 * does; values this cannot scale exactly (at least 1e9, below about 1e-19, subnormal, not
 * finite) go to printf.
 */
enum { G9_DIGITS = 9 };

/* round(m * 2^e2 * 10^k) half to even, exactly, in *q; 0, or -1 when it cannot be done
 * here (k outside 0..27, or a shift past 127 bits). m < 2^53. */
static int g9_scaled(uint64_t m, int e2, int k, unsigned __int128 *q) {
    /* 10^k = 5^k * 2^k: the power of 5 (below 2^63) multiplies, the power of 2 shifts. */
    static const uint64_t fives[28] = {1,
                                       5,
                                       25,
                                       125,
                                       625,
                                       3125,
                                       15625,
                                       78125,
                                       390625,
                                       1953125,
                                       9765625,
                                       48828125,
                                       244140625,
                                       1220703125,
                                       6103515625,
                                       30517578125,
                                       152587890625,
                                       762939453125,
                                       3814697265625,
                                       19073486328125,
                                       95367431640625,
                                       476837158203125,
                                       2384185791015625,
                                       11920928955078125,
                                       59604644775390625,
                                       298023223876953125,
                                       1490116119384765625,
                                       7450580596923828125};
    if (k < 0 || k > 27)
        return -1;
    unsigned __int128 n = (unsigned __int128)m * fives[k]; /* below 2^116 */
    int shift = e2 + k;
    if (shift >= 0) {
        if (shift > 11) /* the value is then far above the 9 digits wanted */
            return -1;
        *q = n << shift;
        return 0;
    }
    int r = -shift;
    if (r > 127)
        return -1;
    unsigned __int128 whole = n >> r, rest = n - (whole << r);
    unsigned __int128 half = (unsigned __int128)1 << (r - 1);
    if (rest > half || (rest == half && (whole & 1)))
        whole++;
    *q = whole;
    return 0;
}

/* Writes v as "%.9g" would into out (at least 32 bytes); returns the length, or -1 when
 * the value is left to printf. */
static int g9_format(double v, char *out) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int negative = (int)(bits >> 63), biased = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
    char *p = out;
    if (negative)
        *p++ = '-';
    if (biased == 0 && m == 0) {
        *p++ = '0';
        return (int)(p - out);
    }
    if (biased == 0 || biased == 0x7ff)
        return -1; /* subnormal, infinite or NaN */
    m |= UINT64_C(1) << 52;
    int e2 = biased - 1075; /* |v| = m * 2^e2, with 2^52 <= m < 2^53 */
    /* The decimal exponent of |v|, from its binary one (log10(2) ~ 78913 / 2^18); it may be
     * one off, which the loop corrects from the exact digits. */
    int x = (int)(((int64_t)(e2 + 52) * 78913) >> 18);
    const unsigned __int128 low = 100000000, high = 1000000000;
    unsigned __int128 q = 0;
    int tries = 0;
    for (;;) {
        if (++tries > 4 || g9_scaled(m, e2, G9_DIGITS - 1 - x, &q) != 0)
            return -1;
        if (q < low)
            x--;
        else if (q >= high)
            x++; /* also when only the rounding carried: the next pass gives 10^8 */
        else
            break;
    }
    char digits[G9_DIGITS];
    uint64_t d = (uint64_t)q;
    for (int i = G9_DIGITS - 1; i >= 0; i--, d /= 10)
        digits[i] = (char)('0' + d % 10);
    int last = G9_DIGITS - 1; /* %g drops trailing zeros of the fraction */
    while (last > 0 && digits[last] == '0')
        last--;
    if (x < -4 || x >= G9_DIGITS) {
        *p++ = digits[0];
        if (last > 0) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)last);
            p += last;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        int ax = x < 0 ? -x : x;
        if (ax >= 100)
            *p++ = (char)('0' + ax / 100);
        *p++ = (char)('0' + ax / 10 % 10);
        *p++ = (char)('0' + ax % 10);
    } else if (x >= 0) {
        memcpy(p, digits, (size_t)x + 1);
        p += x + 1;
        if (last > x) {
            *p++ = '.';
            memcpy(p, digits + x + 1, (size_t)(last - x));
            p += last - x;
        }
    } else {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -x - 1; i++)
            *p++ = '0';
        memcpy(p, digits, (size_t)last + 1);
        p += last + 1;
    }
    return (int)(p - out);
}

void iot__buf_g9(struct iot_buf *b, double v) {
    char text[32];
    int n = g9_format(v, text);
    if (n < 0)
        iot__buf_printf(b, "%.9g", v);
    else
        iot__buf_append(b, text, (size_t)n);
}

/* Appended, not printed: a hints record holds two dozen keys, and printf's setup for each
 * piece of punctuation cost more than the rest of the record. */
void iot__buf_json_kv(struct iot_buf *b, const struct iot_kv *kv) {
    iot__buf_append(b, "{", 1);
    for (int i = 0; i < kv->n; i++) {
        if (i)
            iot__buf_append(b, ", ", 2);
        iot__buf_json_string(b, kv->keys[i]);
        iot__buf_append(b, ": ", 2);
        iot__buf_json_string(b, kv->vals[i]);
    }
    iot__buf_append(b, "}", 1);
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
        /* A run of plain characters at a time: a table's notes are most of its bytes, and
         * one append per character was most of the time of reading a table at MPI_Init. */
        const char *run = c->p;
        while (c->p < c->end && (unsigned char)*c->p >= 0x20 && *c->p != '"' && *c->p != '\\')
            c->p++;
        if (c->p > run) {
            iot__buf_append(&b, run, (size_t)(c->p - run));
            continue;
        }
        unsigned char ch = (unsigned char)*c->p++;
        if (ch < 0x20)
            goto fail;
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
