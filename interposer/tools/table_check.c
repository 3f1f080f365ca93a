/*
 * table_check: the interposer's own table reader, run outside MPI.
 *
 *   table_check TABLE     prints, when the header names a file system,
 *                         {"line": 1, "verdict": "ok", "header": {"fs_type": F}}, then one
 *                         JSON line per table line that holds an entry:
 *                         {"line": N, "verdict": "ok", "entry": {...}} or
 *                         {"line": N, "verdict": "dropped", "rule": R, "message": M};
 *                         or one {"verdict": "refused", "rule": R, "message": M} line
 *
 * The tests run a corpus of tables through this and through `iotuner table check
 * --json` and require the same verdicts, so the two readers cannot drift apart. Entries
 * are printed with every key they have (note aside, which the interposer ignores) and
 * their specificity. Exit status: 0 when every line was accepted, 1 otherwise, 2 for a
 * usage error.
 */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>

/* The words of table_fields.def's enums, in its order (the IOT_AT_*, ... values). */
static const char *const at_names[] = {"open", "access", "view"};
static const char *const pattern_names[] = {"collective", "independent"};
static const char *const op_names[] = {"read", "write"};
static const char *const layout_names[] = {"contiguous", "strided"};

static void print_entry(const struct iot_entry *e) {
    struct iot_buf b = {0};
    iot__buf_printf(&b, "{\"line\": %d, \"verdict\": \"ok\", \"entry\": {\"at\": \"%s\"", e->line,
                    at_names[e->at]);
    if (e->program) {
        iot__buf_printf(&b, ", \"program\": ");
        iot__buf_json_string(&b, e->program);
    }
    if (e->file) {
        iot__buf_printf(&b, ", \"file\": ");
        iot__buf_json_string(&b, e->file);
    }
    if (e->nprocs >= 0)
        iot__buf_printf(&b, ", \"nprocs\": %ld", e->nprocs);
    if (e->group >= 0)
        iot__buf_printf(&b, ", \"group\": %ld", e->group);
    if (e->pattern >= 0)
        iot__buf_printf(&b, ", \"pattern\": \"%s\"", pattern_names[e->pattern]);
    if (e->op >= 0)
        iot__buf_printf(&b, ", \"op\": \"%s\"", op_names[e->op]);
    if (e->layout >= 0)
        iot__buf_printf(&b, ", \"layout\": \"%s\"", layout_names[e->layout]);
    iot__buf_printf(&b, ", \"hints\": ");
    iot__buf_json_kv(&b, &e->hints);
    iot__buf_printf(&b, ", \"specificity\": %d}}\n", e->specificity);
    fputs(b.data ? b.data : "", stdout);
    iot__buf_free(&b);
}

static void print_verdict(int line, const char *verdict, enum iot_rule rule, const char *message) {
    struct iot_buf b = {0};
    iot__buf_printf(&b, "{");
    if (line > 0)
        iot__buf_printf(&b, "\"line\": %d, ", line);
    iot__buf_printf(&b, "\"verdict\": \"%s\", \"rule\": \"%s\", \"message\": ", verdict,
                    iot__rule_name(rule));
    iot__buf_json_string(&b, message);
    iot__buf_printf(&b, "}\n");
    fputs(b.data ? b.data : "", stdout);
    iot__buf_free(&b);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: table_check TABLE\n");
        return 2;
    }
    char *text = NULL, err[1024] = "";
    size_t len = 0;
    enum iot_rule rule = IOT_NRULES;
    struct iot_table table;
    if (iot__table_read_file(argv[1], &text, &len, &rule, err, sizeof err) != 0 ||
        iot__table_parse(text, len, &table, &rule, err, sizeof err) != 0) {
        print_verdict(0, "refused", rule, err);
        free(text);
        return 1;
    }
    if (table.fs_type) { /* the header, when it says more than the format */
        struct iot_buf b = {0};
        iot__buf_printf(&b, "{\"line\": 1, \"verdict\": \"ok\", \"header\": {\"fs_type\": ");
        iot__buf_json_string(&b, table.fs_type);
        iot__buf_printf(&b, "}}\n");
        fputs(b.data ? b.data : "", stdout);
        iot__buf_free(&b);
    }
    /* Entries and dropped lines, merged in line order. */
    int e = 0, d = 0;
    while (e < table.n || d < table.ndropped) {
        if (d >= table.ndropped || (e < table.n && table.entries[e].line < table.dropped[d].line)) {
            print_entry(&table.entries[e++]);
        } else {
            print_verdict(table.dropped[d].line, "dropped", table.dropped[d].rule,
                          table.dropped[d].message);
            d++;
        }
    }
    int all_ok = table.ndropped == 0;
    iot__table_free(&table);
    free(text);
    return all_ok ? 0 : 1;
}
