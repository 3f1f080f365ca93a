/*
 * table_fuzz: a libFuzzer target for the table reader (interposer/src/reader.h), built by
 * `make fuzz` with AddressSanitizer and UndefinedBehaviorSanitizer and run by `make
 * fuzz-run` with the table corpus (tests/data/tables) as seeds.
 *
 * The first byte of an input chooses what it feeds:
 *   0x01  the rest to iot__json_too_deep and iot__json_parse; a parsed value is written
 *         back as JSON, which must parse again to the same value
 *   0x02  the rest to iot__table_parse with the allocation after the next n failing (n is
 *         the second byte), so every out-of-memory path is walked
 *   other the whole input to iot__table_parse (a table file's bytes, as the corpus has
 *         them), then each entry is matched as the interposer would
 * Everything allocated is freed (LeakSanitizer checks), and the reader's promises are
 * checked: a broken one aborts, and libFuzzer keeps the input.
 */
#include "reader.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(condition)                                                                           \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            fprintf(stderr, "table_fuzz: %s:%d: %s\n", __FILE__, __LINE__, #condition);            \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* ------------------------------------------------------------------ JSON */

static void write_json(struct iot_buf *b, const struct iot_json *v) {
    switch (v->type) {
    case IOT_JSON_NULL:
        iot__buf_printf(b, "null");
        return;
    case IOT_JSON_FALSE:
        iot__buf_printf(b, "false");
        return;
    case IOT_JSON_TRUE:
        iot__buf_printf(b, "true");
        return;
    case IOT_JSON_NUMBER:
        iot__buf_printf(b, "%s", v->text);
        return;
    case IOT_JSON_STRING:
        iot__buf_json_string(b, v->text);
        return;
    case IOT_JSON_ARRAY:
    case IOT_JSON_OBJECT:
        iot__buf_printf(b, v->type == IOT_JSON_ARRAY ? "[" : "{");
        for (int i = 0; i < v->n; i++) {
            iot__buf_printf(b, "%s", i ? "," : "");
            if (v->type == IOT_JSON_OBJECT) {
                iot__buf_json_string(b, v->keys[i]);
                iot__buf_printf(b, ":");
            }
            write_json(b, &v->items[i]);
        }
        iot__buf_printf(b, v->type == IOT_JSON_ARRAY ? "]" : "}");
        return;
    }
}

static int same_json(const struct iot_json *a, const struct iot_json *b) {
    if (a->type != b->type || a->n != b->n)
        return 0;
    if (a->type == IOT_JSON_NUMBER)
        return a->integer == b->integer && strcmp(a->text, b->text) == 0;
    if (a->type == IOT_JSON_STRING)
        return strcmp(a->text, b->text) == 0;
    for (int i = 0; i < a->n; i++) {
        if (a->type == IOT_JSON_OBJECT && strcmp(a->keys[i], b->keys[i]) != 0)
            return 0;
        if (!same_json(&a->items[i], &b->items[i]))
            return 0;
    }
    return 1;
}

static void fuzz_json(const char *text, size_t len) {
    if (iot__json_too_deep(text, len))
        return; /* the table reader never parses such text */
    struct iot_json v;
    int rc = iot__json_parse(text, len, &v);
    CHECK(rc == IOT_JSON_OK || rc == IOT_JSON_SYNTAX || rc == IOT_JSON_DUPLICATE);
    if (rc != IOT_JSON_OK)
        return;
    struct iot_buf b = {0};
    write_json(&b, &v);
    CHECK(!b.failed && b.data);
    CHECK(!iot__json_too_deep(b.data, b.len));
    struct iot_json again;
    CHECK(iot__json_parse(b.data, b.len, &again) == IOT_JSON_OK);
    CHECK(same_json(&v, &again));
    iot__json_free(&again);
    iot__json_free(&v);
    iot__buf_free(&b);
}

/* ----------------------------------------------------------------- table */

static void check_table(const struct iot_table *t) {
    int last = 1;
    for (int i = 0; i < t->n; i++) {
        const struct iot_entry *e = &t->entries[i];
        CHECK(e->line > last); /* line 1 is the header; entries in line order */
        last = e->line;
        CHECK(e->at == IOT_AT_OPEN || e->at == IOT_AT_ACCESS || e->at == IOT_AT_VIEW);
        CHECK(t->per_at[e->at] > 0);
        CHECK(e->specificity >= 0 && e->specificity <= 14);
        if (e->at == IOT_AT_OPEN)
            CHECK(e->group < 0 && e->pattern < 0 && e->op < 0 && e->layout < 0);
        if (e->at == IOT_AT_VIEW)
            CHECK(e->group < 0 && e->pattern < 0 && e->op < 0);
        if (e->at == IOT_AT_ACCESS)
            CHECK(e->pattern != IOT_PATTERN_INDEPENDENT); /* unreachable: dropped */
        CHECK(!e->program || strlen(e->program) <= IOT_TEXT_MAX_CHARS);
        CHECK(!e->file || strlen(e->file) <= IOT_TEXT_MAX_CHARS);
        for (int k = 0; k < e->hints.n; k++) {
            int when = iot__hint_when(e->hints.keys[k]);
            CHECK(when >= 0);
            CHECK(e->at == IOT_AT_OPEN || when != IOT_WHEN_OPEN);
            CHECK(e->hints.vals[k][0] != '\0');
            CHECK(strlen(e->hints.vals[k]) <= IOT_HINT_VALUE_MAX_CHARS);
        }
    }
    CHECK(t->per_at[IOT_AT_OPEN] + t->per_at[IOT_AT_ACCESS] + t->per_at[IOT_AT_VIEW] == t->n);
    last = 1;
    for (int i = 0; i < t->ndropped; i++) {
        CHECK(t->dropped[i].line > last);
        last = t->dropped[i].line;
        CHECK(t->dropped[i].rule < IOT_NRULES);
        CHECK(t->dropped[i].rule >= IOT_RULE_encoding); /* a LINE rule */
        CHECK(t->dropped[i].message != NULL);
    }
}

/* Matches each entry with a query made of its own keys: some entry must apply. */
static void match_entries(const struct iot_table *t) {
    for (int i = 0; i < t->n; i++) {
        const struct iot_entry *e = &t->entries[i];
        struct iot_query q = {
            .at = e->at,
            .program = e->program ? e->program : "program",
            .file = e->file ? e->file : "/dir/file",
            .nprocs = e->nprocs >= 0 ? e->nprocs : 4,
            .group = e->at == IOT_AT_OPEN ? -1 : (e->group >= 0 ? e->group : 20),
            .pattern = e->at == IOT_AT_OPEN ? -1 : (e->pattern >= 0 ? e->pattern : 0),
            .op = e->at == IOT_AT_OPEN ? -1 : (e->op >= 0 ? e->op : 1),
            .layout = e->at == IOT_AT_OPEN ? -1 : (e->layout >= 0 ? e->layout : 0),
        };
        const struct iot_entry *best = iot__table_match(t, &q);
        if (best)
            CHECK(best->at == e->at);
    }
}

static void fuzz_table(const char *text, size_t len, unsigned long fail_from) {
    struct iot_table table;
    enum iot_rule rule = IOT_NRULES;
    char err[512];
    iot__alloc_fail_from(fail_from);
    int rc = iot__table_parse(text, len, &table, &rule, err, sizeof err);
    iot__alloc_fail_from(0);
    if (rc != 0) {
        /* Refused whole: a FILE rule, or out of memory (only when allocations fail). */
        CHECK(rule == IOT_RULE_too_large || rule == IOT_RULE_header ||
              (rule == IOT_NRULES && fail_from));
        CHECK(table.n == 0 && table.ndropped == 0 && !table.entries && !table.dropped);
        return;
    }
    check_table(&table);
    match_entries(&table);
    iot__table_free(&table);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    if (size >= 1 && data[0] == 0x01)
        fuzz_json(text + 1, size - 1);
    else if (size >= 2 && data[0] == 0x02)
        fuzz_table(text + 2, size - 2, (unsigned long)data[1] + 1);
    else
        fuzz_table(text, size, 0);
    return 0;
}
