/*
 * reader.h: the tuning-table reader and what it needs, free of MPI.
 *
 *   alloc.c   allocation, with a switch that makes it fail (tests of out-of-memory paths)
 *   kv.c      ordered lists of hint keys and values
 *   json.c    a strict JSON parser (RFC 8259, bounded depth) and a JSON text writer
 *   table.c   reading a table file, the rules of formats/ (fields, hint vocabulary,
 *             limits), verdicts per line, and matching an entry to a decision
 *
 * RATIONALE: the table decides what reaches MPI, so its reader is the part that must
 * never be wrong. Keeping it apart from MPI lets a small checker (interposer/tools)
 * and a fuzz target run it on any input, and lets the tests compare its verdicts with
 * the Python reader's line by line.
 */
#ifndef IOT_READER_H
#define IOT_READER_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- limits */

enum {
#define IOT_LIMIT(name, value, description) IOT_##name = value,
#include "limits.def"
#undef IOT_LIMIT
};

/* ----------------------------------------------------------------- alloc */

/*
 * Every allocation of the interposer goes through these. After
 * iot__alloc_fail_from(n), the n-th allocation from then on and every later one fail
 * (n = 1: the next one); n = 0 turns failures off and only counts.
 */
void *iot__malloc(size_t size);
void *iot__calloc(size_t count, size_t size);
void *iot__realloc(void *ptr, size_t size);
char *iot__strdup(const char *s);
void iot__alloc_fail_from(unsigned long n);
/* iot__alloc_count returns the allocations made since iot__alloc_fail_from was called. */
unsigned long iot__alloc_count(void);

/* ------------------------------------------------------------ key/values */

/* A small ordered list of MPI info keys and values (owned strings). */
struct iot_kv {
    int n, cap;
    char **keys;
    char **vals;
};

/* iot__kv_set sets key to val (replacing an earlier value); 0 or -1 (no memory). */
int iot__kv_set(struct iot_kv *kv, const char *key, const char *val);
/* iot__kv_set_all sets every key of from (NULL: none) in kv; 0 or -1 (no memory). */
int iot__kv_set_all(struct iot_kv *kv, const struct iot_kv *from);
/* iot__kv_get returns the value of key, or NULL. */
const char *iot__kv_get(const struct iot_kv *kv, const char *key);
/* iot__kv_clear frees every key and value; the list can be reused. */
void iot__kv_clear(struct iot_kv *kv);

/* ---------------------------------------------------------------- writer */

/* A growable text buffer; a failed allocation sets failed and drops text. */
struct iot_buf {
    char *data;
    size_t len, cap;
    int failed;
};
void iot__buf_printf(struct iot_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* iot__buf_append appends n bytes (which may include NUL bytes). */
void iot__buf_append(struct iot_buf *b, const char *data, size_t n);
/* iot__buf_puts appends a string: text that needs no formatting (cheaper than printf). */
void iot__buf_puts(struct iot_buf *b, const char *text);
/* iot__buf_json_string appends s as a quoted, escaped JSON string. */
void iot__buf_json_string(struct iot_buf *b, const char *s);
/* iot__buf_g9 appends v exactly as printf's "%.9g" writes it. */
void iot__buf_g9(struct iot_buf *b, double v);
/* iot__buf_json_kv appends a JSON object of the list's keys and values. */
void iot__buf_json_kv(struct iot_buf *b, const struct iot_kv *kv);
void iot__buf_free(struct iot_buf *b);

/* ---------------------------------------------------------------- parser */

enum iot_json_type {
    IOT_JSON_NULL,
    IOT_JSON_FALSE,
    IOT_JSON_TRUE,
    IOT_JSON_NUMBER,
    IOT_JSON_STRING,
    IOT_JSON_ARRAY,
    IOT_JSON_OBJECT
};

/* One parsed JSON value; arrays and objects own their items. */
struct iot_json {
    enum iot_json_type type;
    int integer; /* NUMBER: written without fraction or exponent */
    char *text;  /* STRING: the decoded UTF-8 (never holds a NUL); NUMBER: its source text */
    int n;       /* ARRAY, OBJECT: number of items */
    char **keys; /* OBJECT: the key of each item, in document order */
    struct iot_json *items;
};

enum { IOT_JSON_OK = 0, IOT_JSON_SYNTAX = -1, IOT_JSON_DUPLICATE = -2, IOT_JSON_NOMEM = -3 };

/*
 * iot__json_too_deep reports whether text nests objects and arrays deeper than
 * IOT_JSON_MAX_DEPTH, counting brackets outside strings. Run before parsing, exactly as
 * the Python reader does, so both readers call the same lines "too deep".
 */
int iot__json_too_deep(const char *text, size_t len);
/*
 * iot__json_parse parses exactly one JSON value from text (white space around it is
 * allowed). Returns IOT_JSON_OK and fills *out (free with iot__json_free), or
 * IOT_JSON_SYNTAX, IOT_JSON_DUPLICATE (an object repeats a key; only for text that is
 * otherwise valid JSON, so a line with both problems is a syntax error in both readers)
 * or IOT_JSON_NOMEM.
 */
int iot__json_parse(const char *text, size_t len, struct iot_json *out);
void iot__json_free(struct iot_json *v);

/* ----------------------------------------------------------------- table */

/* The words of table_fields.def's `at`, in its order. */
enum { IOT_AT_OPEN = 0, IOT_AT_ACCESS = 1, IOT_AT_VIEW = 2 };
enum { IOT_PATTERN_COLLECTIVE = 0, IOT_PATTERN_INDEPENDENT = 1 };
enum { IOT_LAYOUT_CONTIGUOUS = 0, IOT_LAYOUT_STRIDED = 1 };
enum { IOT_KIND_READ = 0, IOT_KIND_WRITE = 1 };

/* The rules of formats/table_rules.def, in their order. */
enum iot_rule {
#define IOT_TABLE_RULE(name, scope, description) IOT_RULE_##name,
#include "table_rules.def"
#undef IOT_TABLE_RULE
    IOT_NRULES
};
/* iot__rule_name returns the rule's name as formats/table_rules.def spells it. */
const char *iot__rule_name(enum iot_rule rule);

/* When a hint may be set (formats/hints.def). */
enum iot_hint_when { IOT_WHEN_OPEN, IOT_WHEN_ANY, IOT_WHEN_LOWER };

/* iot__hint_when returns when key may be set, or -1 for a key not in the vocabulary. */
int iot__hint_when(const char *key);
/* iot__hint_size parses a SIZE or COUNT value ("4096"); 0 with *out, or -1. */
int iot__hint_size(const char *value, uint64_t *out);

struct iot_entry {
    int line;        /* line in the table file, for messages */
    int at;          /* IOT_AT_* */
    char *program;   /* glob or NULL */
    char *file;      /* glob or NULL */
    long nprocs;     /* -1 = any */
    long group;      /* -1 = any */
    int pattern;     /* -1 = any */
    int layout;      /* -1 = any; IOT_LAYOUT_* */
    int op;          /* -1 = any */
    int specificity; /* the weights of formats/table_fields.def */
    struct iot_kv hints;
};

/* A line the reader dropped, and why. */
struct iot_dropped {
    int line;
    enum iot_rule rule;
    char *message;
};

struct iot_table {
    char *fs_type; /* the header's fs_type: the file system it was measured on, or NULL */
    int n;
    struct iot_entry *entries;
    int per_at[3]; /* entries of each decision point (IOT_AT_*): none means no decision there */
    int ndropped;
    struct iot_dropped *dropped;
};

/*
 * iot__table_parse reads a tuning table from text (the whole file, which may hold any
 * bytes). Lines that break a LINE rule are dropped into table->dropped and the rest is
 * read. Returns 0 and fills *table, or -1 when the table is refused whole (a FILE rule,
 * or no memory): then *rule says which (IOT_NRULES for no memory) and err says why.
 */
int iot__table_parse(const char *text, size_t len, struct iot_table *table, enum iot_rule *rule,
                     char *err, size_t errlen);
/*
 * iot__table_read_file reads a table file into *text (malloc'd, NUL appended) and *len,
 * refusing what is not a regular file or is larger than IOT_TABLE_MAX_BYTES without
 * blocking on it. Returns 0, or -1 with *rule and err.
 */
int iot__table_read_file(const char *path, char **text, size_t *len, enum iot_rule *rule, char *err,
                         size_t errlen);
/*
 * iot__fs_type_valid returns 1 when s may be a header's fs_type: 1 to FS_TYPE_MAX_CHARS
 * of a-z, 0-9, '.', '_', '+' and '-', starting with a letter or digit, and not "unknown"
 * (what the knowledge base records when it could not tell).
 */
int iot__fs_type_valid(const char *s);
/* iot__table_free releases what iot__table_parse allocated. */
void iot__table_free(struct iot_table *table);

struct iot_query {
    int at;
    const char *program;
    const char *file;
    long nprocs;
    long group;  /* -1: not known (open) */
    int pattern; /* -1: not known (open) */
    int op;      /* -1: not known (open) */
    int layout;  /* -1: not known (open) */
};
/* iot__table_match returns the most specific entry that applies, or NULL. */
const struct iot_entry *iot__table_match(const struct iot_table *table, const struct iot_query *q);

#endif
