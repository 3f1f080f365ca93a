/*
 * table.c: reads the tuning table (formats/README.md) and finds the entry
 * for a decision. The keys and their types come from formats/table_fields.def,
 * the same list the Python validator reads, so both accept the same files.
 */
#include "iot.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum field_type { FIELD_INT, FIELD_TEXT, FIELD_ENUM, FIELD_HINTS };

struct field {
    const char *name;
    enum field_type type;
    const char *allowed;
};

static const struct field fields[] = {
#define IOT_TABLE_FIELD(name, type, allowed, description) {#name, FIELD_##type, allowed},
#include "table_fields.def"
#undef IOT_TABLE_FIELD
};
enum { NFIELDS = sizeof fields / sizeof fields[0] };

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

/* Checks an integer against "lo-" or "lo-hi". */
static int in_range(const char *allowed, long long v) {
    char *end = NULL;
    long long lo = strtoll(allowed, &end, 10);
    if (v < lo)
        return 0;
    if (end && *end == '-' && end[1] != '\0')
        return v <= strtoll(end + 1, NULL, 10);
    return 1;
}

static int parse_hints(struct iot_json *j, struct iot_kv *hints, char *err, size_t errlen) {
    if (iot__json_expect(j, '{') != 0) {
        snprintf(err, errlen, "'hints' must be an object of MPI info keys to values");
        return -1;
    }
    if (iot__json_peek(j) == '}') {
        j->p++;
        return 0;
    }
    for (;;) {
        char *key = NULL, *val = NULL;
        long long number = 0;
        if (iot__json_string(j, &key) != 0 || iot__json_expect(j, ':') != 0) {
            snprintf(err, errlen, "'hints' must be an object of MPI info keys to values");
            free(key);
            return -1;
        }
        char numtext[32];
        if (iot__json_peek(j) == '"') {
            if (iot__json_string(j, &val) != 0) {
                snprintf(err, errlen, "hint '%s' has a malformed string value", key);
                free(key);
                return -1;
            }
        } else if (iot__json_integer(j, &number) == 0) {
            snprintf(numtext, sizeof numtext, "%lld", number);
            val = strdup(numtext);
        } else {
            snprintf(err, errlen, "hint '%s' must have a string or integer value", key);
            free(key);
            return -1;
        }
        int bad_key = key[0] == '\0' || strlen(key) > MPI_MAX_INFO_KEY;
        int bad_val = !val || strlen(val) > MPI_MAX_INFO_VAL;
        if (bad_key || bad_val) {
            snprintf(err, errlen, "hint key must be 1-%d characters and value at most %d, got '%s'",
                     MPI_MAX_INFO_KEY, MPI_MAX_INFO_VAL, key);
            free(key);
            free(val);
            return -1;
        }
        int rc = iot__kv_set(hints, key, val);
        free(key);
        free(val);
        if (rc != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (iot__json_peek(j) == ',') {
            j->p++;
            continue;
        }
        if (iot__json_expect(j, '}') != 0) {
            snprintf(err, errlen, "expected ',' or '}' in 'hints'");
            return -1;
        }
        return 0;
    }
}

/* Stores one parsed value in the entry. */
static void entry_set(struct iot_entry *e, const char *name, long long number, char *text) {
    if (strcmp(name, "at") == 0)
        e->at = word_index("open|access", text), free(text);
    else if (strcmp(name, "program") == 0)
        e->program = text;
    else if (strcmp(name, "file") == 0)
        e->file = text;
    else if (strcmp(name, "nprocs") == 0)
        e->nprocs = (long)number;
    else if (strcmp(name, "group") == 0)
        e->group = (long)number;
    else if (strcmp(name, "pattern") == 0)
        e->pattern = word_index("collective|independent", text), free(text);
    else if (strcmp(name, "layout") == 0)
        e->layout = word_index("contiguous|strided", text), free(text);
    else if (strcmp(name, "op") == 0)
        e->op = word_index("read|write", text), free(text);
    else
        free(text); /* note: kept by Python only */
}

static int parse_entry(struct iot_json *j, struct iot_entry *e, char *err, size_t errlen) {
    int seen[NFIELDS] = {0};
    e->at = IOT_AT_ACCESS;
    e->nprocs = e->group = -1;
    e->pattern = e->op = e->layout = -1;
    if (iot__json_expect(j, '{') != 0) {
        snprintf(err, errlen, "expected a JSON object");
        return -1;
    }
    if (iot__json_peek(j) == '}')
        j->p++;
    else
        for (;;) {
            char *key = NULL;
            if (iot__json_string(j, &key) != 0 || iot__json_expect(j, ':') != 0) {
                snprintf(err, errlen, "expected a quoted key and ':'");
                free(key);
                return -1;
            }
            int f = 0;
            while (f < NFIELDS && strcmp(fields[f].name, key) != 0)
                f++;
            if (f == NFIELDS) {
                snprintf(err, errlen,
                         "unknown key '%.64s' (expected at, program, file, nprocs, group, "
                         "pattern, op, layout, hints, note)",
                         key);
                free(key);
                return -1;
            }
            free(key);
            if (seen[f]++) {
                snprintf(err, errlen, "key '%s' appears twice", fields[f].name);
                return -1;
            }
            long long number = 0;
            char *text = NULL;
            switch (fields[f].type) {
            case FIELD_INT:
                if (iot__json_integer(j, &number) != 0 || !in_range(fields[f].allowed, number)) {
                    snprintf(err, errlen, "'%s' must be an integer %s", fields[f].name,
                             fields[f].allowed);
                    return -1;
                }
                break;
            case FIELD_TEXT:
            case FIELD_ENUM:
                if (iot__json_string(j, &text) != 0) {
                    snprintf(err, errlen, "'%s' must be a string", fields[f].name);
                    return -1;
                }
                if (fields[f].type == FIELD_ENUM && word_index(fields[f].allowed, text) < 0) {
                    snprintf(err, errlen, "'%s' must be one of %s, got '%.64s'", fields[f].name,
                             fields[f].allowed, text);
                    free(text);
                    return -1;
                }
                break;
            case FIELD_HINTS:
                if (parse_hints(j, &e->hints, err, errlen) != 0)
                    return -1;
                break;
            }
            if (fields[f].type != FIELD_HINTS)
                entry_set(e, fields[f].name, number, text);
            if (iot__json_peek(j) == ',') {
                j->p++;
                continue;
            }
            if (iot__json_expect(j, '}') != 0) {
                snprintf(err, errlen, "expected ',' or '}'");
                return -1;
            }
            break;
        }
    if (iot__json_peek(j) != -1) {
        snprintf(err, errlen, "unexpected text after the object");
        return -1;
    }
    int hints_seen = 0;
    for (int f = 0; f < NFIELDS; f++)
        hints_seen |= fields[f].type == FIELD_HINTS && seen[f];
    if (!hints_seen) {
        snprintf(err, errlen, "'hints' is required (an object of MPI info keys and values)");
        return -1;
    }
    if (e->at == IOT_AT_OPEN &&
        (e->group >= 0 || e->pattern >= 0 || e->op >= 0 || e->layout >= 0)) {
        snprintf(
            err, errlen,
            "an entry with \"at\": \"open\" cannot name group, pattern, op or layout (they are not "
            "known at open)");
        return -1;
    }
    e->specificity = (e->program ? 4 : 0) + (e->file ? 4 : 0) + (e->nprocs >= 0 ? 2 : 0) +
                     (e->group >= 0) + (e->pattern >= 0) + (e->op >= 0) + (e->layout >= 0);
    return 0;
}

static void entry_free(struct iot_entry *e) {
    free(e->program);
    free(e->file);
    iot__kv_clear(&e->hints);
}

/* The header: {"format": "iotuner-table", "version": 1}, keys in any order. */
static int parse_header(struct iot_json *j, char *err, size_t errlen) {
    int format_ok = 0, version_ok = 0;
    long long version = 0;
    if (iot__json_expect(j, '{') != 0)
        goto bad;
    for (;;) {
        char *key = NULL, *val = NULL;
        if (iot__json_string(j, &key) != 0 || iot__json_expect(j, ':') != 0) {
            free(key);
            goto bad;
        }
        if (strcmp(key, "format") == 0 && iot__json_string(j, &val) == 0) {
            format_ok = strcmp(val, "iotuner-table") == 0;
        } else if (strcmp(key, "version") == 0 && iot__json_integer(j, &version) == 0) {
            version_ok = version == 1;
        } else {
            free(key);
            goto bad;
        }
        free(key);
        free(val);
        if (iot__json_peek(j) == ',') {
            j->p++;
            continue;
        }
        if (iot__json_expect(j, '}') != 0 || iot__json_peek(j) != -1)
            goto bad;
        break;
    }
    if (format_ok && version_ok)
        return 0;
    if (format_ok) {
        snprintf(err, errlen, "line 1: this interposer reads table version 1, got version %lld",
                 version);
        return -1;
    }
bad:
    snprintf(err, errlen,
             "line 1: expected the header {\"format\": \"iotuner-table\", \"version\": 1}");
    return -1;
}

int iot__table_parse(const char *text, size_t len, struct iot_table *table, char *err,
                     size_t errlen) {
    memset(table, 0, sizeof *table);
    int cap = 0, line = 0, header = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        line++;
        struct iot_json j = {p, eol};
        p = nl ? nl + 1 : end;
        /* Same rules as the Python reader: the header is line 1, '#' in column 1. */
        if (j.p < j.end && *j.p == '#' && header)
            continue;
        if (iot__json_peek(&j) == -1 && header)
            continue;
        if (!header) {
            if (parse_header(&j, err, errlen) != 0)
                goto fail;
            header = 1;
            continue;
        }
        if (table->n == cap) {
            cap = cap ? cap * 2 : 16;
            struct iot_entry *grown = realloc(table->entries, (size_t)cap * sizeof *grown);
            if (!grown) {
                snprintf(err, errlen, "out of memory");
                goto fail;
            }
            table->entries = grown;
        }
        struct iot_entry *e = &table->entries[table->n];
        memset(e, 0, sizeof *e);
        e->line = line;
        char msg[512];
        if (parse_entry(&j, e, msg, sizeof msg) != 0) {
            entry_free(e);
            snprintf(err, errlen, "line %d: %s", line, msg);
            goto fail;
        }
        table->n++;
    }
    if (!header) {
        snprintf(err, errlen,
                 "empty table: expected the header {\"format\": \"iotuner-table\", "
                 "\"version\": 1}");
        goto fail;
    }
    return 0;
fail:
    iot__table_free(table);
    return -1;
}

void iot__table_free(struct iot_table *table) {
    for (int i = 0; i < table->n; i++)
        entry_free(&table->entries[i]);
    free(table->entries);
    table->entries = NULL;
    table->n = 0;
}

static int glob_matches(const char *pattern, const char *name) {
    if (!pattern)
        return 1;
    if (!name)
        return 0;
    const char *base = strrchr(name, '/');
    const char *subject = strchr(pattern, '/') || !base ? name : base + 1;
    return fnmatch(pattern, subject, 0) == 0;
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
