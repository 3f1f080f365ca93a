/*
 * table.c: reads the tuning table (formats/README.md), applies the rules of formats/
 * (table_fields.def, hints.def, limits.def, table_rules.def) line by line, and finds
 * the entry for a decision. The Python reader (iotuner.table) applies the same rules in
 * the same order; the tests run one corpus through both and compare the verdicts.
 */
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ definitions */

enum field_type { FIELD_INT, FIELD_TEXT, FIELD_ENUM, FIELD_HINTS };

struct field {
    const char *name;
    enum field_type type;
    const char *allowed;
    int weight;
};

static const struct field fields[] = {
#define IOT_TABLE_FIELD(name, type, allowed, weight, description)                                  \
    {#name, FIELD_##type, allowed, weight},
#include "table_fields.def"
#undef IOT_TABLE_FIELD
};
enum { NFIELDS = sizeof fields / sizeof fields[0] };

enum hint_type { HINT_ENUM, HINT_SIZE, HINT_COUNT };

struct hint_def {
    const char *key;
    enum hint_type type;
    const char *allowed;
    unsigned long long multiple;
    enum iot_hint_when when;
};

static const struct hint_def vocabulary[] = {
#define IOT_HINT(key, type, allowed, multiple, when, implementations, description, ops)            \
    {#key, HINT_##type, allowed, multiple, IOT_WHEN_##when},
#include "hints.def"
#undef IOT_HINT
};
enum { NHINTS = sizeof vocabulary / sizeof vocabulary[0] };

static const char *const rule_names[IOT_NRULES] = {
#define IOT_TABLE_RULE(name, scope, description) #name,
#include "table_rules.def"
#undef IOT_TABLE_RULE
};

const char *iot__rule_name(enum iot_rule rule) {
    return rule < IOT_NRULES ? rule_names[rule] : "out_of_memory";
}

static const struct hint_def *hint_def(const char *key) {
    for (int i = 0; i < NHINTS; i++)
        if (strcmp(vocabulary[i].key, key) == 0)
            return &vocabulary[i];
    return NULL;
}

int iot__hint_when(const char *key) {
    const struct hint_def *d = hint_def(key);
    return d ? (int)d->when : -1;
}

/* ------------------------------------------------------------ value rules */

/* Index of word in a '|' separated list, or -1. */
static int word_index(const char *list, const char *word) {
    size_t len = strlen(word);
    int index = 0;
    for (const char *p = list; *p; index++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncmp(p, word, n) == 0)
            return index;
        if (!bar)
            break;
        p = bar + 1;
    }
    return -1;
}

int iot__hint_size(const char *value, uint64_t *out) {
    /* Decimal digits only, no sign, space, suffix or leading zero: what MPI's atoi-style
     * parsers read the same way everywhere. 19 digits always fit in 64 bits. */
    size_t n = strlen(value);
    if (n == 0 || n > 19 || (value[0] == '0' && n > 1))
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (value[i] < '0' || value[i] > '9')
            return -1;
        v = v * 10 + (uint64_t)(value[i] - '0');
    }
    *out = v;
    return 0;
}

/* Reads "lo-hi" of a range. */
static void range_of(const char *allowed, unsigned long long *lo, unsigned long long *hi) {
    char *end = NULL;
    *lo = strtoull(allowed, &end, 10);
    *hi = (end && *end == '-') ? strtoull(end + 1, NULL, 10) : ~0ULL;
}

/* Why a hint value breaks its key's rule (into msg), or 0 when it is allowed. */
static int hint_value_problem(const struct hint_def *d, const char *value, char *msg,
                              size_t msglen) {
    if (strlen(value) > IOT_HINT_VALUE_MAX_CHARS) {
        snprintf(msg, msglen, "hint %s: a value has at most %d characters, got %zu", d->key,
                 IOT_HINT_VALUE_MAX_CHARS, strlen(value));
        return 1;
    }
    switch (d->type) {
    case HINT_ENUM:
        if (word_index(d->allowed, value) >= 0)
            return 0;
        snprintf(msg, msglen, "hint %s must be one of %s, got '%.64s'", d->key, d->allowed, value);
        return 1;
    case HINT_SIZE:
    case HINT_COUNT: {
        uint64_t v = 0;
        unsigned long long lo, hi;
        range_of(d->allowed, &lo, &hi);
        if (iot__hint_size(value, &v) == 0 && v >= lo && v <= hi && v % d->multiple == 0)
            return 0;
        char multiple[64] = "";
        if (d->multiple > 1)
            snprintf(multiple, sizeof multiple, " and a multiple of %llu", d->multiple);
        snprintf(msg, msglen, "hint %s must be %s %s%s (decimal digits only), got '%.64s'", d->key,
                 d->type == HINT_SIZE ? "a byte count" : "a count", d->allowed, multiple, value);
        return 1;
    }
    }
    return 0;
}

/* --------------------------------------------------------------- entries */

struct verdict {
    enum iot_rule rule;
    char msg[512];
};

static int fail(struct verdict *v, enum iot_rule rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct verdict *v, enum iot_rule rule, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg, sizeof v->msg, fmt, ap);
    va_end(ap);
    v->rule = rule;
    return -1;
}

/* An integer field's value, when its text fits in a long long; 0 or -1. */
static int integer_of(const struct iot_json *j, long long *out) {
    if (j->type != IOT_JSON_NUMBER || !j->integer || strlen(j->text) > 18)
        return -1;
    *out = strtoll(j->text, NULL, 10);
    return 0;
}

/* Checks one field's value and stores it in the entry; 0, or -1 with a verdict. */
static int entry_field(struct iot_entry *e, const struct field *f, const struct iot_json *j,
                       struct verdict *v) {
    long long number = 0;
    unsigned long long lo, hi;
    switch (f->type) {
    case FIELD_INT:
        range_of(f->allowed, &lo, &hi);
        if (integer_of(j, &number) != 0 || number < (long long)lo ||
            (unsigned long long)number > hi)
            return fail(v, IOT_RULE_field_value, "'%s' must be an integer %s", f->name, f->allowed);
        if (strcmp(f->name, "nprocs") == 0)
            e->nprocs = (long)number;
        else
            e->group = (long)number;
        return 0;
    case FIELD_ENUM:
        if (j->type != IOT_JSON_STRING || word_index(f->allowed, j->text) < 0)
            return fail(v, IOT_RULE_field_value, "'%s' must be one of %s", f->name, f->allowed);
        if (strcmp(f->name, "at") == 0)
            e->at = word_index(f->allowed, j->text);
        else if (strcmp(f->name, "pattern") == 0)
            e->pattern = word_index(f->allowed, j->text);
        else if (strcmp(f->name, "op") == 0)
            e->op = word_index(f->allowed, j->text);
        else
            e->layout = word_index(f->allowed, j->text);
        return 0;
    case FIELD_TEXT:
        if (j->type != IOT_JSON_STRING || strlen(j->text) > IOT_TEXT_MAX_CHARS)
            return fail(v, IOT_RULE_field_value, "'%s' must be a string of at most %d bytes",
                        f->name, IOT_TEXT_MAX_CHARS);
        if (strcmp(f->name, "program") == 0 || strcmp(f->name, "file") == 0) {
            char *copy = iot__strdup(j->text);
            if (!copy)
                return fail(v, IOT_NRULES, "out of memory");
            if (strcmp(f->name, "program") == 0)
                e->program = copy;
            else
                e->file = copy;
        }
        return 0;
    case FIELD_HINTS:
        if (j->type != IOT_JSON_OBJECT)
            return fail(v, IOT_RULE_field_value,
                        "'hints' must be an object of MPI info keys and values");
        return 0;
    }
    return 0;
}

/* Checks the hints of an entry against the vocabulary and stores them; 0 or -1. */
static int entry_hints(struct iot_entry *e, const struct iot_json *hints, struct verdict *v) {
    for (int i = 0; i < hints->n; i++) {
        const char *key = hints->keys[i];
        const struct iot_json *value = &hints->items[i];
        const struct hint_def *d = hint_def(key);
        if (!d)
            return fail(v, IOT_RULE_hint_unknown,
                        "hint '%.64s' is not in the hint vocabulary (formats/hints.def)", key);
        const char *shown = NULL;
        if (value->type == IOT_JSON_STRING) {
            shown = value->text;
        } else if (value->type == IOT_JSON_NUMBER && value->integer) {
            /* An integer is its decimal text; "-0" is 0, as Python reads it. */
            shown = strcmp(value->text, "-0") == 0 ? "0" : value->text;
        } else {
            return fail(v, IOT_RULE_hint_value, "hint %s must be a string or an integer", key);
        }
        if (hint_value_problem(d, shown, v->msg, sizeof v->msg)) {
            v->rule = IOT_RULE_hint_value;
            return -1;
        }
        if (e->at != IOT_AT_OPEN && d->when == IOT_WHEN_OPEN)
            return fail(v, IOT_RULE_hint_when,
                        "hint %s is only read when a file is opened: put it in an "
                        "\"at\": \"open\" entry",
                        key);
        if (iot__kv_set(&e->hints, key, shown) != 0)
            return fail(v, IOT_NRULES, "out of memory");
    }
    return 0;
}

/* Interprets one parsed entry line; 0, or -1 with a verdict. */
static int entry_from_json(struct iot_entry *e, const struct iot_json *j, struct verdict *v) {
    e->at = IOT_AT_ACCESS;
    e->nprocs = e->group = -1;
    e->pattern = e->op = e->layout = -1;
    if (j->type != IOT_JSON_OBJECT)
        return fail(v, IOT_RULE_not_object, "an entry must be a JSON object");
    const struct iot_json *hints = NULL;
    int present[NFIELDS] = {0};
    for (int i = 0; i < j->n; i++) {
        int f = 0;
        while (f < NFIELDS && strcmp(fields[f].name, j->keys[i]) != 0)
            f++;
        if (f == NFIELDS)
            return fail(v, IOT_RULE_unknown_field,
                        "unknown key '%.64s' (expected at, program, file, nprocs, group, "
                        "pattern, op, layout, hints, note)",
                        j->keys[i]);
        if (entry_field(e, &fields[f], &j->items[i], v) != 0)
            return -1;
        present[f] = 1;
        if (fields[f].type == FIELD_HINTS)
            hints = &j->items[i];
    }
    if (!hints)
        return fail(v, IOT_RULE_hints_missing,
                    "'hints' is required (an object of MPI info keys and values)");
    if (e->at == IOT_AT_OPEN && (e->group >= 0 || e->pattern >= 0 || e->op >= 0 || e->layout >= 0))
        return fail(v, IOT_RULE_open_with_access_field,
                    "an entry with \"at\": \"open\" cannot name group, pattern, op or layout "
                    "(they are not known at open)");
    if (e->at == IOT_AT_VIEW && (e->group >= 0 || e->pattern >= 0 || e->op >= 0))
        return fail(v, IOT_RULE_open_with_access_field,
                    "an entry with \"at\": \"view\" cannot name group, pattern or op "
                    "(they are not known at set_view)");
    if (e->at == IOT_AT_ACCESS && e->pattern == IOT_PATTERN_INDEPENDENT)
        return fail(v, IOT_RULE_unreachable,
                    "independent calls make no decision, so no decision point reaches this "
                    "entry: give its hints in an \"at\": \"open\" or \"view\" entry");
    if (entry_hints(e, hints, v) != 0)
        return -1;
    e->specificity = 0;
    for (int f = 0; f < NFIELDS; f++)
        e->specificity += present[f] ? fields[f].weight : 0;
    return 0;
}

static void entry_free(struct iot_entry *e) {
    free(e->program);
    free(e->file);
    iot__kv_clear(&e->hints);
}

/* ------------------------------------------------------------------ lines */

/* Whether s is valid UTF-8 (strict: no overlong forms, no surrogates), as Python decodes. */
static int utf8_valid(const unsigned char *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        size_t n;
        unsigned lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            if (c == 0xE0)
                lo = 0xA0;
            if (c == 0xED)
                hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            if (c == 0xF0)
                lo = 0x90;
            if (c == 0xF4)
                hi = 0x8F;
        } else {
            return 0;
        }
        if (i + n >= len)
            return 0; /* the sequence is cut off by the end of the line */
        if (s[i + 1] < lo || s[i + 1] > hi)
            return 0;
        for (size_t k = 2; k <= n; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF)
                return 0;
        i += n + 1;
    }
    return 1;
}

/* Checks the line-level rules and parses the line; 0 with *out, or -1 with a verdict. */
static int line_parse(const char *p, size_t len, struct iot_json *out, struct verdict *v) {
    if (!utf8_valid((const unsigned char *)p, len))
        return fail(v, IOT_RULE_encoding, "the line is not valid UTF-8");
    if (len > IOT_TABLE_MAX_LINE_BYTES)
        return fail(v, IOT_RULE_line_too_long, "the line is longer than %d bytes",
                    IOT_TABLE_MAX_LINE_BYTES);
    if (iot__json_too_deep(p, len))
        return fail(v, IOT_RULE_json, "JSON nested deeper than %d levels", IOT_JSON_MAX_DEPTH);
    switch (iot__json_parse(p, len, out)) {
    case IOT_JSON_OK:
        return 0;
    case IOT_JSON_DUPLICATE:
        return fail(v, IOT_RULE_duplicate_key, "an object names the same key twice");
    case IOT_JSON_NOMEM:
        return fail(v, IOT_NRULES, "out of memory");
    default:
        return fail(v, IOT_RULE_json, "not valid JSON");
    }
}

int iot__fs_type_valid(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n > IOT_FS_TYPE_MAX_CHARS || strcmp(s, "unknown") == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '+' && c != '-')))
            return 0;
    }
    return 1;
}

/* The header: {"format": "iotuner-table", "version": 1}, keys in any order, with an
 * optional "fs_type" (kept in *fs_type). */
static int header_check(const char *p, size_t len, struct verdict *v, char **fs_type) {
    struct iot_json j;
    if (line_parse(p, len, &j, v) != 0)
        return v->rule == IOT_NRULES ? -1 : fail(v, IOT_RULE_header, "%s", "");
    int format_ok = 0, version_ok = 0, other = j.type != IOT_JSON_OBJECT;
    const char *version = NULL, *fs = NULL;
    int fs_bad = 0;
    for (int i = 0; j.type == IOT_JSON_OBJECT && i < j.n; i++) {
        const struct iot_json *item = &j.items[i];
        if (strcmp(j.keys[i], "format") == 0 && item->type == IOT_JSON_STRING)
            format_ok = strcmp(item->text, "iotuner-table") == 0;
        else if (strcmp(j.keys[i], "version") == 0 && item->type == IOT_JSON_NUMBER)
            version = item->text, version_ok = item->integer && strcmp(item->text, "1") == 0;
        else if (strcmp(j.keys[i], "fs_type") == 0)
            fs = item->type == IOT_JSON_STRING ? item->text : "",
            fs_bad = item->type != IOT_JSON_STRING || !iot__fs_type_valid(item->text);
        else
            other = 1; /* any other key, wherever it is, or a value of the wrong type */
    }
    int rc = 0;
    if (other)
        rc = fail(v, IOT_RULE_header, "%s", "");
    else if (format_ok == 1 && version_ok == 1 && fs_bad)
        rc = fail(v, IOT_RULE_header,
                  "fs_type must be a file system type as /proc/self/mounts names it (1 to %d of "
                  "a-z, 0-9, '.', '_', '+', '-', starting with a letter or digit, not "
                  "\"unknown\"), got '%.64s'",
                  IOT_FS_TYPE_MAX_CHARS, fs);
    else if (format_ok == 1 && version_ok == 1)
        rc = fs && !(*fs_type = iot__strdup(fs)) ? fail(v, IOT_NRULES, "out of memory") : 0;
    else if (format_ok == 1 && version)
        rc = fail(v, IOT_RULE_header, "this interposer reads table version 1, got version %.32s",
                  version);
    else
        rc = fail(v, IOT_RULE_header, "%s", "");
    iot__json_free(&j);
    return rc;
}

static int blank_line(const char *p, size_t len) {
    for (size_t i = 0; i < len; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
            return 0;
    return 1;
}

static int drop_line(struct iot_table *table, int line, const struct verdict *v, int *cap) {
    if (table->ndropped == *cap) {
        int grown = *cap ? *cap * 2 : 8;
        struct iot_dropped *d = iot__realloc(table->dropped, (size_t)grown * sizeof *d);
        if (!d)
            return -1;
        table->dropped = d;
        *cap = grown;
    }
    char *msg = iot__strdup(v->msg);
    if (!msg)
        return -1;
    table->dropped[table->ndropped++] = (struct iot_dropped){line, v->rule, msg};
    return 0;
}

int iot__table_parse(const char *text, size_t len, struct iot_table *table, enum iot_rule *rule,
                     char *err, size_t errlen) {
    memset(table, 0, sizeof *table);
    int cap = 0, dropcap = 0, line = 0;
    const char *p = text, *end = text + len;
    struct verdict v = {IOT_NRULES, ""};
    if (len > IOT_TABLE_MAX_BYTES) {
        *rule = IOT_RULE_too_large;
        snprintf(err, errlen, "larger than %d bytes", IOT_TABLE_MAX_BYTES);
        return -1;
    }
    do {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        size_t n = (size_t)(eol - p);
        const char *start = p;
        line++;
        p = nl ? nl + 1 : end;
        if (line == 1) {
            if (header_check(start, n, &v, &table->fs_type) != 0)
                goto refuse;
            continue;
        }
        /* Same rules as the Python reader: '#' in column 1, and blank lines, are skipped. */
        if ((n > 0 && *start == '#') || blank_line(start, n))
            continue;
        if (table->n == cap) {
            int grown = cap ? cap * 2 : 16;
            struct iot_entry *entries =
                iot__realloc(table->entries, (size_t)grown * sizeof *entries);
            if (!entries) {
                v.rule = IOT_NRULES;
                snprintf(v.msg, sizeof v.msg, "out of memory");
                goto refuse;
            }
            table->entries = entries;
            cap = grown;
        }
        struct iot_entry *e = &table->entries[table->n];
        memset(e, 0, sizeof *e);
        e->line = line;
        struct iot_json j;
        int ok = line_parse(start, n, &j, &v) == 0;
        if (ok) {
            ok = entry_from_json(e, &j, &v) == 0;
            iot__json_free(&j);
        }
        if (ok) {
            table->per_at[e->at]++;
            table->n++;
            continue;
        }
        entry_free(e);
        if (v.rule == IOT_NRULES || drop_line(table, line, &v, &dropcap) != 0) {
            v.rule = IOT_NRULES;
            snprintf(v.msg, sizeof v.msg, "out of memory");
            goto refuse;
        }
    } while (p < end);
    return 0;
refuse:
    *rule = v.rule;
    if (v.rule == IOT_RULE_header)
        snprintf(err, errlen,
                 "line 1: expected the header {\"format\": \"iotuner-table\", "
                 "\"version\": 1}%s%s",
                 v.msg[0] ? ": " : "", v.msg);
    else
        snprintf(err, errlen, "%s", v.msg);
    iot__table_free(table);
    return -1;
}

int iot__table_read_file(const char *path, char **text, size_t *len, enum iot_rule *rule, char *err,
                         size_t errlen) {
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    *rule = IOT_RULE_unreadable;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        *rule = IOT_RULE_not_regular;
        snprintf(err, errlen, "%s is not a regular file", path);
        close(fd);
        return -1;
    }
    if (st.st_size > IOT_TABLE_MAX_BYTES) {
        *rule = IOT_RULE_too_large;
        snprintf(err, errlen, "%s has %lld bytes, more than the %d a table may have", path,
                 (long long)st.st_size, IOT_TABLE_MAX_BYTES);
        close(fd);
        return -1;
    }
    /* Read up to one byte past the limit: a file that grew since fstat is caught too. */
    char *data = iot__malloc((size_t)IOT_TABLE_MAX_BYTES + 2);
    size_t got = 0;
    while (data && got <= (size_t)IOT_TABLE_MAX_BYTES) {
        ssize_t n = read(fd, data + got, (size_t)IOT_TABLE_MAX_BYTES + 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n < 0) {
                snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
                free(data);
                close(fd);
                return -1;
            }
            break;
        }
        got += (size_t)n;
    }
    close(fd);
    if (!data) {
        *rule = IOT_NRULES;
        snprintf(err, errlen, "out of memory reading %s", path);
        return -1;
    }
    if (got > (size_t)IOT_TABLE_MAX_BYTES) {
        *rule = IOT_RULE_too_large;
        snprintf(err, errlen, "%s has more than the %d bytes a table may have", path,
                 IOT_TABLE_MAX_BYTES);
        free(data);
        return -1;
    }
    data[got] = '\0';
    *text = data;
    *len = got;
    return 0;
}

void iot__table_free(struct iot_table *table) {
    for (int i = 0; i < table->n; i++)
        entry_free(&table->entries[i]);
    for (int i = 0; i < table->ndropped; i++)
        free(table->dropped[i].message);
    free(table->entries);
    free(table->dropped);
    free(table->fs_type);
    memset(table, 0, sizeof *table);
}

/* ---------------------------------------------------------------- matching */

static int glob_matches(const char *pattern, const char *name) {
    if (!pattern)
        return 1;
    if (!name)
        return 0;
    const char *base = strrchr(name, '/');
    const char *subject = strchr(pattern, '/') || !base ? name : base + 1;
    /* FNM_NOESCAPE: a backslash is an ordinary character, as in Python's fnmatch. */
    return fnmatch(pattern, subject, FNM_NOESCAPE) == 0;
}

const struct iot_entry *iot__table_match(const struct iot_table *table, const struct iot_query *q) {
    const struct iot_entry *best = NULL;
    for (int i = 0; i < table->n; i++) {
        const struct iot_entry *e = &table->entries[i];
        if (e->at != q->at || !glob_matches(e->program, q->program) ||
            !glob_matches(e->file, q->file))
            continue;
        if ((e->nprocs >= 0 && e->nprocs != q->nprocs) || (e->group >= 0 && e->group != q->group) ||
            (e->pattern >= 0 && e->pattern != q->pattern) || (e->op >= 0 && e->op != q->op) ||
            (e->layout >= 0 && e->layout != q->layout))
            continue;
        if (!best || e->specificity > best->specificity)
            best = e;
    }
    return best;
}
