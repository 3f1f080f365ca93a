/*
 * decide.c: which hints to pass, and when.
 *
 * Decisions happen only where every rank of the file's group is present
 * (open, set_view, set_info, blocking collective data access) and are made
 * from inputs every rank shares, so every rank passes the same hints
 * (ROMIO compares them and fails with MPI_ERR_NOT_SAME otherwise).
 */
#include "iot.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>

/* The keys of the hint vocabulary (formats/hints.def): every hints record shows what MPI
 * reports for them, besides the requested ones. */
static const char *const vocabulary_keys[] = {
#define IOT_HINT(key, type, allowed, multiple, when, implementations, description, ops) #key,
#include "hints.def"
#undef IOT_HINT
};
enum { NVOCABULARY = sizeof vocabulary_keys / sizeof vocabulary_keys[0] };

static int is_striping_key(const char *key) {
    return strcmp(key, "striping_factor") == 0 || strcmp(key, "striping_unit") == 0 ||
           strcmp(key, "start_iodevice") == 0;
}

int iot__info_names_striping(MPI_Info info) {
    static const char *const keys[] = {"striping_factor", "striping_unit", "start_iodevice"};
    for (int i = 0; info != MPI_INFO_NULL && i < 3; i++) {
        int len = 0, flag = 0;
        if (PMPI_Info_get_valuelen(info, keys[i], &len, &flag) == MPI_SUCCESS && flag)
            return 1;
    }
    return 0;
}

/*
 * Whether the program's own value of a key stays when entry e also names it. Under the
 * `app` policy always; under `table`, when the entry names no program. RATIONALE: an
 * entry for every program (the scale's defaults `tune` writes from the benchmark kernel)
 * has no evidence about this program, whose author chose its hints; an entry written for
 * the program (from its own traces or a search of it) does. A pio_noncontig read with its
 * own cb_nodes=4 overridden by a scale entry's cb_nodes=1 took twice as long.
 */
static int app_wins(const struct iot_entry *e) {
    return iot__state.policy_app || !e || !e->program;
}

/*
 * Whether filename is on the file system the table was measured on: 0 yes (or the table
 * names none), 1 on another (its type in found), 2 iotuner cannot tell.
 */
static int fs_differs(const char *filename, char *found, size_t len) {
    const char *measured = iot__state.table.fs_type;
    if (!measured)
        return 0;
    if (iot__fs_type_of(filename, found, len) != 0)
        return 2;
    return strcmp(found, measured) != 0;
}

MPI_Info iot__decide_open(MPI_Comm comm, int rank, int size, const char *filename,
                          MPI_Info app_info, struct iot_kv *table_hints, char *untuned,
                          size_t untuned_len) {
    struct iot_state *s = &iot__state;
    untuned[0] = '\0';
    if (!s->tune)
        return app_info;
    char found[IOT_FS_TYPE_MAX_CHARS + 64] = "";
    int fs = fs_differs(filename, found, sizeof found);
    struct iot_query q = {.at = IOT_AT_OPEN,
                          .program = s->program,
                          .file = filename,
                          .nprocs = size,
                          .group = -1,
                          .pattern = -1,
                          .op = -1,
                          .layout = -1};
    const struct iot_entry *e = fs ? NULL : iot__table_match(&s->table, &q);
    MPI_Info info = MPI_INFO_NULL;
    int ok = 1;
    if (e && e->hints.n > 0) {
        struct iot_kv app = {0};
        int rc =
            app_info == MPI_INFO_NULL ? PMPI_Info_create(&info) : PMPI_Info_dup(app_info, &info);
        ok = rc == MPI_SUCCESS && iot__kv_from_info(&app, app_info) == 0;
        for (int i = 0; ok && i < e->hints.n; i++) {
            const char *key = e->hints.keys[i];
            if (app_wins(e) && iot__kv_get(&app, key))
                continue;
            ok = PMPI_Info_set(info, key, e->hints.vals[i]) == MPI_SUCCESS &&
                 iot__kv_set(table_hints, key, e->hints.vals[i]) == 0;
        }
        const char *fault_key, *fault_value;
        if (ok && iot__fault_open_hint(&fault_key, &fault_value))
            ok = PMPI_Info_set(info, fault_key, fault_value) == MPI_SUCCESS;
        iot__kv_clear(&app);
    }
    /* Every rank must pass the same hints: agree on the entry (its line; ranks of an MPMD
     * job or with differently spelt file names may match different ones) and on success;
     * and, in the same reduction, on the file system (ranks may see different ones, or
     * one may fail to tell): the worst verdict of any rank holds for all. */
    int mine = !ok ? -1 : e && e->hints.n > 0 ? e->line : 0;
    int both[3] = {mine, -mine, -fs}, all[3] = {0, 0, 0};
    int reduced = PMPI_Allreduce(both, all, 3, MPI_INT, MPI_MIN, comm) == MPI_SUCCESS;
    int fs_all = reduced ? -all[2] : 0;
    if (fs_all == 2) {
        snprintf(untuned, untuned_len,
                 "iotuner could not tell the file system of this file on some rank; the table "
                 "was measured on %s",
                 s->table.fs_type);
        iot__warn(rank == 0,
                  "iotuner could not tell the file system of a file opened; the table was "
                  "measured on %s, so such files stay untuned (the trace names them)",
                  s->table.fs_type);
    } else if (fs_all == 1) {
        snprintf(untuned, untuned_len, "the table was measured on %s; the file is on %s",
                 s->table.fs_type, fs ? found : "another file system on some rank");
    }
    int agreed = reduced && !fs_all && all[0] == -all[1] && all[0] > 0;
    if (agreed)
        return info;
    if (reduced && !fs_all && (all[0] != -all[1] || all[0] < 0))
        iot__warn(rank == 0,
                  "the ranks opening %s could not agree on its open hints (out of memory, or "
                  "different programs or file names); opened untuned",
                  filename);
    if (info != MPI_INFO_NULL)
        PMPI_Info_free(&info);
    iot__kv_clear(table_hints);
    return app_info;
}

void iot__info_release(MPI_Info info, MPI_Info app_info) {
    if (info != app_info && info != MPI_INFO_NULL)
        PMPI_Info_free(&info);
}

/* The file's info, read quietly (MPI_File_get_info); MPI_INFO_NULL when it failed. */
static MPI_Info file_info(MPI_File fh) {
    MPI_Errhandler saved = iot__quiet_begin(fh);
    MPI_Info info = MPI_INFO_NULL;
    if (saved == MPI_ERRHANDLER_NULL || PMPI_File_get_info(fh, &info) != MPI_SUCCESS)
        info = MPI_INFO_NULL;
    iot__quiet_end(fh, saved);
    return info;
}

/* Reads the values of keys from info into out; 0 or -1 (MPI_INFO_NULL: -1). */
static int info_values(MPI_Info info, const char *const *keys, int nkeys, struct iot_kv *out) {
    int ok = info != MPI_INFO_NULL;
    for (int i = 0; ok && i < nkeys; i++) {
        char val[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        ok = PMPI_Info_get(info, keys[i], MPI_MAX_INFO_VAL, val, &flag) == MPI_SUCCESS &&
             (!flag || iot__kv_set(out, keys[i], val) == 0);
    }
    return ok ? 0 : -1;
}

/* Reads the values of keys from the file's info, quietly; 0 or -1. */
static int file_values(MPI_File fh, const char *const *keys, int nkeys, struct iot_kv *out) {
    MPI_Info info = file_info(fh);
    int ok = info_values(info, keys, nkeys, out) == 0;
    if (info != MPI_INFO_NULL)
        PMPI_Info_free(&info);
    return ok ? 0 : -1;
}

int iot__note_open_values(struct iot_file *f) {
    /* The keys hints.def marks LOWER: sized at open, never raised after it. */
    const char *lower[NVOCABULARY];
    int n = 0;
    for (int i = 0; i < NVOCABULARY; i++)
        if (iot__hint_when(vocabulary_keys[i]) == IOT_WHEN_LOWER)
            lower[n++] = vocabulary_keys[i];
    MPI_Info info = file_info(f->fh);
    int ok = info_values(info, lower, n, &f->at_open) == 0;
    /* The open's hints record, made next on the file's rank 0, reads the same info. */
    if (ok && f->traced && f->rank == 0)
        f->open_info = info;
    else if (info != MPI_INFO_NULL)
        PMPI_Info_free(&info);
    return ok ? 0 : -1;
}

int iot__reapplicable(MPI_File fh, const struct iot_kv *table, struct iot_kv *give,
                      struct iot_kv *held) {
    const char *lower[NVOCABULARY];
    int n = 0;
    for (int i = 0; i < NVOCABULARY; i++)
        if (iot__hint_when(vocabulary_keys[i]) == IOT_WHEN_LOWER)
            lower[n++] = vocabulary_keys[i];
    struct iot_kv now = {0};
    int ok = file_values(fh, lower, n, &now) == 0;
    for (int i = 0; ok && i < table->n; i++) {
        const char *key = table->keys[i], *val = table->vals[i], *in_force = iot__kv_get(&now, key);
        uint64_t want = 0, limit = 0;
        int raises = iot__hint_when(key) == IOT_WHEN_LOWER &&
                     !(in_force && iot__hint_size(val, &want) == 0 &&
                       iot__hint_size(in_force, &limit) == 0 && want <= limit);
        ok = iot__kv_set(raises ? held : give, key, val) == 0;
    }
    iot__kv_clear(&now);
    return ok ? 0 : -1;
}

/*
 * Whether a LOWER key may take value now: only when it does not exceed the value in
 * force at open. Raising cb_buffer_size after open overflows ROMIO's collective buffer
 * (formats/hint_safety.md).
 */
static int lower_allowed(const struct iot_file *f, const char *key, const char *value) {
    if (iot__hint_when(key) != IOT_WHEN_LOWER)
        return 1;
    const char *at_open = iot__kv_get(&f->at_open, key);
    uint64_t want = 0, limit = 0;
    return at_open && iot__hint_size(value, &want) == 0 && iot__hint_size(at_open, &limit) == 0 &&
           want <= limit;
}

/*
 * Records in f->baseline, for each key of keys that has no baseline yet, the value the file
 * has now: what the key was before iotuner first changed it, so that a later decision can
 * put it back. A key MPI does not report gets no baseline (it is then left alone later).
 * Keys that already have one keep it: only the first reading comes before iotuner's changes.
 * With held not NULL, also tells whether every key already holds its value in keys (as MPI
 * reports it), from the same reading: one MPI_File_get_info per decision, not two.
 * Reads the file's info only when there are keys. Returns 0, or -1 when the info
 * could not be read or memory ran out (f->baseline may then hold some of the keys).
 */
static int note_baseline(struct iot_file *f, const struct iot_kv *keys, int *held) {
    if (held)
        *held = 0;
    if (keys->n == 0)
        return 0;
    struct iot_kv current = {0};
    int ok = file_values(f->fh, (const char *const *)keys->keys, keys->n, &current) == 0;
    for (int i = 0; ok && i < current.n; i++)
        if (!iot__kv_get(&f->baseline, current.keys[i]))
            ok = iot__kv_set(&f->baseline, current.keys[i], current.vals[i]) == 0;
    int same = ok;
    for (int i = 0; same && i < keys->n; i++) {
        const char *in_force = iot__kv_get(&current, keys->keys[i]);
        same = in_force && strcmp(in_force, keys->vals[i]) == 0;
    }
    if (held)
        *held = same;
    iot__kv_clear(&current);
    return ok ? 0 : -1;
}

/* Stops tuning a file on every rank of it together (the caller has agreed). */
static void stop_tuning(struct iot_file *f, const char *why) {
    f->tuned = 0;
    iot__warn(f->rank == 0, "%s for %s; the file runs on untuned", why, f->name);
}

/*
 * Applies entry e (NULL: none) at a blocking collective point.
 *
 * RATIONALE: when every key the decision wants already holds its value on every rank (an
 * access entry repeating the open entry's keys, the usual table), MPI_File_set_info is not
 * called: in ROMIO it broadcasts to check each hint's consistency, part of the 0.3 ms a
 * tuned 9 ms phase paid (bench/trace_cost.py). The ranks learn this in the reduction that
 * agrees on readiness, so no collective is added and all take the same path.
 */
static void decide_apply(struct iot_file *f, const struct iot_entry *e, const char *at) {
    struct iot_kv want = {0}, table = {0}, held = {0};
    int ok = 1;
    for (int i = 0; e && ok && i < e->hints.n; i++) {
        const char *key = e->hints.keys[i], *val = e->hints.vals[i];
        if (app_wins(e) && iot__kv_get(&f->app, key))
            continue;
        if (!lower_allowed(f, key, val)) {
            ok = iot__kv_set(&held, key, val) == 0;
            continue;
        }
        ok = iot__kv_set(&want, key, val) == 0 && iot__kv_set(&table, key, val) == 0;
    }
    /* Keys the previous entry set and this one does not go back to what they were: the
     * program's own value where it wins now, else the view entry's, else the value before
     * iotuner first changed them. */
    for (int i = 0; ok && i < f->applied.n; i++) {
        const char *old = app_wins(e) ? iot__kv_get(&f->app, f->applied.keys[i]) : NULL;
        if (!old)
            old = iot__kv_get(&f->view_set, f->applied.keys[i]);
        if (!old)
            old = iot__kv_get(&f->baseline, f->applied.keys[i]);
        if (!iot__kv_get(&want, f->applied.keys[i]) && old)
            ok = iot__kv_set(&want, f->applied.keys[i], old) == 0;
    }
    int held_already = 0;
    if (ok)
        ok = note_baseline(f, &want, &held_already) == 0;
    MPI_Info info = MPI_INFO_NULL;
    if (ok && want.n > 0) {
        ok = PMPI_Info_create(&info) == MPI_SUCCESS;
        for (int i = 0; ok && i < want.n; i++)
            ok = PMPI_Info_set(info, want.keys[i], want.vals[i]) == MPI_SUCCESS;
    }
    int mine[2] = {ok != 0, ok && want.n > 0 && held_already}, all[2] = {0, 0};
    if (PMPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, f->comm) != MPI_SUCCESS || !all[0]) {
        stop_tuning(f, "a rank ran out of memory preparing hints");
    } else if (all[1]) {
        struct iot_kv none = {0}; /* nothing passed to MPI: the record's requested is empty */
        iot__record_hints(f, at, &none, &table, &held, 0);
    } else if (want.n > 0) {
        MPI_Errhandler saved = iot__quiet_begin(f->fh);
        int rc =
            saved != MPI_ERRHANDLER_NULL ? iot__real.File_set_info(f->fh, info) : MPI_ERR_OTHER;
        iot__quiet_end(f->fh, saved);
        if (!iot__agree(f->comm, rc == MPI_SUCCESS))
            stop_tuning(f, "MPI_File_set_info failed on a rank");
        else
            iot__record_hints(f, at, &want, &table, &held, 0);
    } else if (held.n > 0) {
        iot__record_hints(f, at, &want, &table, &held, 0); /* nothing set; say why */
    }
    if (info != MPI_INFO_NULL)
        PMPI_Info_free(&info);
    iot__kv_clear(&f->applied);
    f->access_stale = 0;
    if (f->tuned) {
        f->applied = table;
        f->access_entry = e;
    } else {
        iot__kv_clear(&table);
    }
    iot__kv_clear(&want);
    iot__kv_clear(&held);
}

/*
 * RATIONALE: the decision's reduction is not paid on every collective call. Every rank
 * makes the same collective calls on a file in the same order (MPI requires it), so a
 * count of them is the same on every rank and a schedule of counts needs no message to
 * stay agreed. A decision runs at the 1st, 2nd, 4th, ... DECIDE_EVERY-th blocking
 * collective data call after open, set_view and set_info (the points where what the
 * program does, or the hints in force, may change), then at every DECIDE_EVERY-th. Between
 * two decisions the entry in force stays: a program whose call sizes change runs at most
 * DECIDE_EVERY calls with the previous size group's hints, which cost only speed, never
 * correctness (formats/README.md, "Decision points").
 */
enum { DECIDE_EVERY = 256 };

int iot__access_decision_due(struct iot_file *f) {
    struct iot_state *s = &iot__state;
    if (!s->tune || !f->tuned || s->table.per_at[IOT_AT_ACCESS] == 0)
        return 0;
    uint64_t n = ++f->coll_calls;
    return n <= DECIDE_EVERY ? (n & (n - 1)) == 0 : n % DECIDE_EVERY == 0;
}

/* A no_entry record (rank 0, once per file, size group, op and layout): the trace says
 * where the table had nothing to apply. */
static void record_no_entry(struct iot_file *f, const struct iot_query *q) {
    struct iot_state *s = &iot__state;
    int bit = 1 << (q->op * 2 + q->layout);
    if (!s->trace || !f->traced || f->rank != 0 || q->group < 0 || q->group > IOT_NGROUPS ||
        (f->no_entry_logged[q->group] & bit))
        return;
    f->no_entry_logged[q->group] |= (uint8_t)bit;
    pthread_mutex_lock(&s->lock);
    if (iot__log_reserve()) {
        struct iot_buf *b = &s->out;
        iot__buf_printf(b, "{\"record\": \"no_entry\", \"file\": ");
        iot__buf_json_string(b, f->name);
        iot__buf_printf(b,
                        ", \"at\": \"access\", \"time_stamp\": %.6f, \"nprocs\": %d, "
                        "\"group\": %ld, \"pattern\": \"collective\", \"op\": \"%s\", "
                        "\"layout\": \"%s\"}\n",
                        iot__now(), f->size, q->group, q->op == IOT_KIND_READ ? "read" : "write",
                        q->layout == IOT_LAYOUT_CONTIGUOUS ? "contiguous" : "strided");
    }
    pthread_mutex_unlock(&s->lock);
}

void iot__decide_access(struct iot_file *f, int op, uint64_t my_bytes) {
    struct iot_state *s = &iot__state;
    if (!s->tune || !f->tuned)
        return;
    /* One reduction agrees on both inputs: the bytes, and whether every rank's view is
     * contiguous (views may differ between ranks; the decision must not). */
    unsigned long long mine[2] = {my_bytes, (unsigned long long)f->view_contiguous}, all[2];
    if (PMPI_Allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, f->comm) != MPI_SUCCESS)
        return;
    unsigned long long total = all[0];
    int contiguous = all[1] == (unsigned long long)f->size;
    struct iot_query q = {
        .at = IOT_AT_ACCESS,
        .program = s->program,
        .file = f->name,
        .nprocs = f->size,
        .group = iot__size_group(total / (unsigned long long)f->size),
        .pattern = IOT_PATTERN_COLLECTIVE,
        .op = iot__ops[op].kind == 'r' ? IOT_KIND_READ : IOT_KIND_WRITE,
        .layout = contiguous ? IOT_LAYOUT_CONTIGUOUS : IOT_LAYOUT_STRIDED,
    };
    const struct iot_entry *e = iot__table_match(&s->table, &q);
    if (!e)
        record_no_entry(f, &q);
    if (e != f->access_entry || f->access_stale)
        decide_apply(f, e, "access");
}

/*
 * The info to pass to set_view or set_info: the program's keys; under the table policy the
 * table's access keys in force laid over them; when deciding (set_view with view entries in
 * the table), the view entry's keys, and the keys the previous view entry set and this one
 * does not back at the values they had before. The file's state changes the same way on
 * every rank whatever MPI then answers, so later decisions stay agreed.
 */
static MPI_Info merge(struct iot_file *f, MPI_Info app_info, int deciding,
                      const struct iot_entry *view, struct iot_pending *p) {
    struct iot_state *s = &iot__state;
    struct iot_kv app = {0}, overrides = {0}, view_now = {0}, held = {0};
    f->coll_calls = 0; /* what the program does, or the hints in force, may change here */
    int ok = iot__kv_from_info(&app, app_info) == 0 && iot__kv_set_all(&f->app, &app) == 0;

    /* Under the table policy, the table's keys in force stay in force. */
    int merging = s->tune && f->tuned && !app_wins(f->access_entry) && f->applied.n > 0;
    for (int i = 0; ok && merging && i < f->applied.n; i++) {
        const char *theirs = iot__kv_get(&app, f->applied.keys[i]);
        if (theirs && strcmp(theirs, f->applied.vals[i]) != 0)
            ok = iot__kv_set(&overrides, f->applied.keys[i], f->applied.vals[i]) == 0;
    }
    for (int i = 0; ok && deciding && view && i < view->hints.n; i++) {
        const char *key = view->hints.keys[i], *val = view->hints.vals[i];
        if (app_wins(view) && iot__kv_get(&app, key))
            continue;
        if (!lower_allowed(f, key, val)) {
            ok = iot__kv_set(&held, key, val) == 0;
            continue;
        }
        ok = iot__kv_set(&view_now, key, val) == 0 && iot__kv_set(&overrides, key, val) == 0;
    }
    for (int i = 0; ok && deciding && i < f->view_set.n; i++) {
        const char *key = f->view_set.keys[i], *old = iot__kv_get(&f->baseline, key);
        if (!iot__kv_get(&view_now, key) && !iot__kv_get(&app, key) && old)
            ok = iot__kv_set(&overrides, key, old) == 0;
    }
    if (ok && deciding)
        ok = note_baseline(f, &view_now, NULL) == 0;
    MPI_Info info = app_info;
    if (ok && overrides.n > 0) {
        ok = (app_info == MPI_INFO_NULL ? PMPI_Info_create(&info)
                                        : PMPI_Info_dup(app_info, &info)) == MPI_SUCCESS;
        for (int i = 0; ok && i < overrides.n; i++)
            ok = PMPI_Info_set(info, overrides.keys[i], overrides.vals[i]) == MPI_SUCCESS &&
                 iot__kv_set(&app, overrides.keys[i], overrides.vals[i]) == 0;
    }
    /* Only where the table's keys are in force or decided can ranks come to pass different
     * infos; elsewhere nothing is merged and no agreement is needed. */
    if ((merging || deciding) && !iot__agree(f->comm, ok)) {
        stop_tuning(f, "a rank ran out of memory merging the program's hints");
        ok = 0;
    } else if (ok && deciding) {
        if (view != f->view_entry)
            f->access_stale = 1;
        f->view_entry = view;
        iot__kv_clear(&f->view_set);
        f->view_set = view_now;
        view_now = (struct iot_kv){0};
    }
    if (!ok && info != app_info && info != MPI_INFO_NULL)
        PMPI_Info_free(&info);
    if (!ok)
        info = app_info;
    if (ok && (app_info != MPI_INFO_NULL || overrides.n > 0 || held.n > 0)) {
        p->record = 1;
        p->requested = app;
        p->table = overrides;
        p->held = held;
    } else {
        iot__kv_clear(&app);
        iot__kv_clear(&overrides);
        iot__kv_clear(&held);
    }
    iot__kv_clear(&view_now);
    return info;
}

MPI_Info iot__merge_app_info(struct iot_file *f, MPI_Info app_info, struct iot_pending *p) {
    *p = (struct iot_pending){0};
    return merge(f, app_info, 0, NULL, p);
}

MPI_Info iot__decide_view(struct iot_file *f, MPI_Info app_info, MPI_Datatype filetype,
                          struct iot_pending *p) {
    struct iot_state *s = &iot__state;
    *p = (struct iot_pending){0};
    const struct iot_entry *view = NULL;
    int deciding = 0;
    if (s->tune && f->tuned && s->table.per_at[IOT_AT_VIEW] > 0) {
        /* The layout is strided when the new view has holes on any rank. One reduction
         * agrees on it and on the entry each layout would match (ranks of an MPMD job may
         * match different ones: then no view decision). */
        int holes = 1, valid = iot__type_has_holes(filetype, &holes) == 0;
        struct iot_query q = {.at = IOT_AT_VIEW,
                              .program = s->program,
                              .file = f->name,
                              .nprocs = f->size,
                              .group = -1,
                              .pattern = -1,
                              .op = -1,
                              .layout = IOT_LAYOUT_CONTIGUOUS};
        const struct iot_entry *contiguous = iot__table_match(&s->table, &q);
        q.layout = IOT_LAYOUT_STRIDED;
        const struct iot_entry *strided = iot__table_match(&s->table, &q);
        int lc = contiguous ? contiguous->line : 0, ls = strided ? strided->line : 0;
        int mine[6] = {valid && holes, !valid, lc, -lc, ls, -ls}, all[6];
        if (PMPI_Allreduce(mine, all, 6, MPI_INT, MPI_MAX, f->comm) == MPI_SUCCESS && !all[1]) {
            int is_strided = all[0] > 0;
            int agreed = is_strided ? all[4] == -all[5] : all[2] == -all[3];
            if (agreed) {
                deciding = 1;
                view = is_strided ? strided : contiguous;
            } else {
                iot__warn(f->rank == 0,
                          "the ranks of %s matched different view entries (different programs "
                          "or file names); its view hints stay as they were",
                          f->name);
            }
        }
    }
    return merge(f, app_info, deciding, view, p);
}

void iot__pending_finish(struct iot_file *f, const char *at, struct iot_pending *p, int result) {
    if (p->record && result == MPI_SUCCESS)
        iot__record_hints(f, at, &p->requested, &p->table, &p->held, 0);
    iot__kv_clear(&p->requested);
    iot__kv_clear(&p->table);
    iot__kv_clear(&p->held);
    p->record = 0;
}

/* The driver ROMIO picks for `file` when it does not say (Open MPI 4.1's romio321 echoes
 * only the keys it was given): a "driver:" prefix of the name, else the file system's
 * type as ROMIO's own check reads it (statfs magic numbers of ad_fstype.c). */
static void romio_driver_of(const char *file, char *out, size_t outlen) {
    const char *colon = strchr(file, ':'), *slash = strchr(file, '/');
    if (colon && (!slash || colon < slash) && colon - file > 1) {
        snprintf(out, outlen, "%.*s", (int)(colon - file), file);
        return;
    }
    struct statfs fs;
    if (statfs(file, &fs) != 0)
        return;
    unsigned long magic = (unsigned long)fs.f_type;
    snprintf(out, outlen, "%s",
             magic == 0x6969UL       ? "nfs"
             : magic == 0x0BD00BD0UL ? "lustre"
             : magic == 0x47504653UL ? "gpfs"
             : magic == 0x19830326UL ? "beegfs"
                                     : "ufs");
}

/* The ROMIO driver name ("ufs", "nfs", "lustre", ...) from romio_filesystem_type, or as
 * ROMIO picks it where it does not say; "ompio" for Open MPI's own component. */
static void driver_name(MPI_Info info, const char *file, char *out, size_t outlen) {
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    snprintf(out, outlen, "%s", iot__state.is_ompio ? "ompio" : "unknown");
    if (iot__state.is_ompio)
        return;
    if (PMPI_Info_get(info, "romio_filesystem_type", MPI_MAX_INFO_VAL, val, &flag) != MPI_SUCCESS ||
        !flag) {
        if (iot__state.is_openmpi)
            romio_driver_of(file, out, outlen);
        return;
    }
    size_t n = strcspn(val, ": ");
    if (n >= outlen)
        n = outlen - 1;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)(val[i] >= 'A' && val[i] <= 'Z' ? val[i] - 'A' + 'a' : val[i]);
    out[n] = '\0';
}

/* Why a requested hint will not do what it says, or NULL. */
static const char *unhonoured_reason(const char *key, const char *want, const char *got,
                                     const char *driver, const char *at, int file_existed,
                                     char *buf, size_t buflen) {
    struct iot_state *s = &iot__state;
    if (is_striping_key(key) && strcmp(driver, "lustre") != 0)
        return "this file system driver does not stripe; MPI echoes the value but nothing "
               "was applied";
    if (is_striping_key(key) && (strcmp(at, "open") != 0 || file_existed))
        return "striping is only set when a file is created";
    if (iot__hint_when(key) == IOT_WHEN_OPEN && strcmp(at, "open") != 0)
        return "ROMIO reads this key at open only; it is ignored here";
    if (s->is_ompio && strncmp(key, "romio_", 6) == 0)
        return "Open MPI's OMPIO ignores romio_* keys (formats/ompio_map.def)";
    if (s->reapply_at_open && strcmp(at, "open") == 0)
        return "Open MPI 5's ROMIO ignores hints given at open; iotuner gave the table's "
               "again with MPI_File_set_info (the set_info record that follows)";
    if (s->is_openmpi && s->openmpi_major < 5 && strcmp(at, "open") != 0)
        return "Open MPI 4 drops keys given after open: MPI_File_set_info returns success "
               "but its I/O component never sees them (formats/hint_safety.md)";
    if (!got && s->is_ompio && s->openmpi_major >= 5 && strcmp(at, "open") != 0)
        return "Open MPI 5's OMPIO lists no key in MPI_File_get_info after MPI_File_set_info; "
               "it keeps them and reads them at the next set_view, not for the view in force "
               "(formats/hint_safety.md)";
    if (!got && s->is_openmpi)
        return "not reported by MPI_File_get_info, which in Open MPI lists only the keys "
               "given at open";
    if (!got)
        return "not reported by MPI_File_get_info: the MPI library does not know this key";
    if (strcmp(want, got) != 0) {
        if (strcmp(key, "cb_nodes") == 0 && s->nodes == 1)
            snprintf(buf, buflen, "MPI uses %s; on one node cb_nodes > 1 needs cb_config_list=*:*",
                     got);
        else
            snprintf(buf, buflen, "MPI uses %s", got);
        return buf;
    }
    return NULL;
}

/*
 * A hints record waiting to be written. RATIONALE: looking up the vocabulary's keys in
 * the file's info and formatting the record took 9 of the 11 us a record cost rank 0 at
 * open (2.2 us of it MPI_File_get_info), in an I/O phase of 0.5 ms; only the info must be
 * read at the time (the hints in force change later), so it is kept, with copies of what
 * the record shows, and the record is written at MPI_Finalize with the op rows, or when
 * HINTS_WAITING_MAX wait (a few KB each: the info's two dozen keys and the copies).
 */
struct hints_waiting {
    struct hints_waiting *next;
    char *file;
    char *untuned; /* at open: why the file stays untuned, or NULL */
    const char *at;
    int seq, file_existed;
    double time_stamp;
    MPI_Info info; /* MPI_File_get_info then; MPI_INFO_NULL when it failed */
    char driver[64];
    struct iot_kv requested, table, app, held, held_at_open;
};

enum { HINTS_WAITING_MAX = 256 };
static struct hints_waiting *hints_first, **hints_last = &hints_first;
static int hints_count;

static void hints_clear(struct hints_waiting *h) {
    if (h->info != MPI_INFO_NULL)
        PMPI_Info_free(&h->info);
    free(h->file);
    free(h->untuned);
    iot__kv_clear(&h->requested);
    iot__kv_clear(&h->table);
    iot__kv_clear(&h->app);
    iot__kv_clear(&h->held);
    iot__kv_clear(&h->held_at_open);
}

/* Writes one hints record into the log (state lock held). */
static void hints_write(const struct hints_waiting *h) {
    struct iot_state *s = &iot__state;
    struct iot_kv effective = {0};
    for (int i = 0; h->info != MPI_INFO_NULL && i < NVOCABULARY + h->requested.n; i++) {
        const char *key = i < NVOCABULARY ? vocabulary_keys[i] : h->requested.keys[i - NVOCABULARY];
        char val[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        if (PMPI_Info_get(h->info, key, MPI_MAX_INFO_VAL, val, &flag) == MPI_SUCCESS && flag)
            iot__kv_set(&effective, key, val);
    }
    if (!iot__log_reserve()) {
        iot__kv_clear(&effective);
        return;
    }
    struct iot_buf *b = &s->out;
    iot__buf_puts(b, "{\"record\": \"hints\", \"file\": ");
    iot__buf_json_string(b, h->file);
    iot__buf_printf(b,
                    ", \"seq\": %d, \"at\": \"%s\", \"time_stamp\": %.6f, \"requested\": ", h->seq,
                    h->at, h->time_stamp);
    iot__buf_json_kv(b, &h->requested);
    iot__buf_puts(b, ", \"table\": ");
    iot__buf_json_kv(b, &h->table);
    iot__buf_puts(b, ", \"app\": ");
    iot__buf_json_kv(b, &h->app);
    iot__buf_puts(b, ", \"effective\": ");
    iot__buf_json_kv(b, &effective);
    iot__buf_puts(b, ", \"driver\": ");
    iot__buf_json_string(b, h->driver);
    if (h->untuned) {
        iot__buf_puts(b, ", \"untuned\": ");
        iot__buf_json_string(b, h->untuned);
    }
    iot__buf_puts(b, ", \"unhonoured\": [");
    int listed = 0;
    for (int i = 0; i < h->requested.n; i++) {
        char reason_buf[256];
        const char *reason =
            unhonoured_reason(h->requested.keys[i], h->requested.vals[i],
                              iot__kv_get(&effective, h->requested.keys[i]), h->driver, h->at,
                              h->file_existed, reason_buf, sizeof reason_buf);
        if (!reason)
            continue;
        iot__buf_printf(b, "%s{\"key\": ", listed++ ? ", " : "");
        iot__buf_json_string(b, h->requested.keys[i]);
        iot__buf_puts(b, ", \"reason\": ");
        iot__buf_json_string(b, reason);
        iot__buf_puts(b, "}");
    }
    for (int i = 0; i < h->held.n; i++) {
        const char *at_open = iot__kv_get(&h->held_at_open, h->held.keys[i]);
        char reason[256];
        snprintf(reason, sizeof reason,
                 "not raised above its value at open (%.64s): the buffer it sizes was "
                 "allocated then (formats/hints.def)",
                 at_open ? at_open : "unknown");
        iot__buf_printf(b, "%s{\"key\": ", listed++ ? ", " : "");
        iot__buf_json_string(b, h->held.keys[i]);
        iot__buf_puts(b, ", \"reason\": ");
        iot__buf_json_string(b, reason);
        iot__buf_puts(b, "}");
    }
    iot__buf_puts(b, "]}\n");
    iot__kv_clear(&effective);
}

/* Writes the waiting hints records, in the order they were made (state lock held). */
static void hints_write_waiting(void) {
    while (hints_first) {
        struct hints_waiting *h = hints_first;
        hints_first = h->next;
        hints_write(h);
        hints_clear(h);
        free(h);
    }
    hints_last = &hints_first;
    hints_count = 0;
}

void iot__hints_finish(void) {
    pthread_mutex_lock(&iot__state.lock);
    hints_write_waiting();
    pthread_mutex_unlock(&iot__state.lock);
}

/*
 * The seq of a new hints record (state lock held): this rank's count of them times the
 * world's size plus its world rank, so that no two ranks name two records alike. A file
 * opened on a rank's own communicator has its hints recorded, and its rows written, by
 * that rank (issue 42: two ranks opening one name on MPI_COMM_SELF both wrote seq 0, and
 * the log was refused). -1 (no record) once the number would not fit an int.
 */
static int next_hint_seq(struct iot_state *s) {
    int size = s->world_size > 0 ? s->world_size : 1;
    if (s->hint_counter < 0 || s->hint_counter > (INT_MAX - size) / size)
        return -1;
    return s->hint_counter++ * size + s->world_rank;
}

void iot__record_hints(struct iot_file *f, const char *at, const struct iot_kv *requested,
                       const struct iot_kv *table, const struct iot_kv *held, int file_existed) {
    struct iot_state *s = &iot__state;
    pthread_mutex_lock(&s->lock);
    f->hint_seq = next_hint_seq(s);
    pthread_mutex_unlock(&s->lock);
    if (f->hint_seq < 0 || !s->trace || !f->traced || f->rank != 0)
        return;
    /* Without memory to keep it, the record is written now, as whole as memory allows
     * (op rows name it by its seq: a log without it would not read). */
    struct hints_waiting here = {0}, *h = iot__calloc(1, sizeof *h);
    int kept = h != NULL;
    if (!h)
        h = &here;
    h->info = MPI_INFO_NULL;
    h->at = at;
    h->seq = f->hint_seq;
    h->file_existed = file_existed;
    h->time_stamp = iot__now();
    snprintf(h->driver, sizeof h->driver, "unknown");
    if (f->open_info != MPI_INFO_NULL && strcmp(at, "open") == 0) {
        h->info = f->open_info; /* read by iot__note_open_values just before */
        f->open_info = MPI_INFO_NULL;
    } else {
        h->info = file_info(f->fh);
    }
    /* The driver now: where MPI does not name it, the file's file system says (statfs),
     * and the file may be gone at MPI_Finalize. */
    if (h->info != MPI_INFO_NULL)
        driver_name(h->info, f->name, h->driver, sizeof h->driver);
    h->file = iot__strdup(f->name);
    int whole = h->file && iot__kv_set_all(&h->requested, requested) == 0 &&
                iot__kv_set_all(&h->table, table) == 0 && iot__kv_set_all(&h->app, &f->app) == 0 &&
                iot__kv_set_all(&h->held, held) == 0;
    if (whole && f->untuned && strcmp(at, "open") == 0)
        whole = (h->untuned = iot__strdup(f->untuned)) != NULL;
    for (int i = 0; whole && held && i < held->n; i++) {
        const char *at_open = iot__kv_get(&f->at_open, held->keys[i]);
        whole = !at_open || iot__kv_set(&h->held_at_open, held->keys[i], at_open) == 0;
    }
    /* Appended under the state's lock: with MPI_THREAD_MULTIPLE, two threads may decide
     * for two files at once. */
    pthread_mutex_lock(&s->lock);
    if (kept && whole) {
        *hints_last = h;
        hints_last = &h->next;
        if (++hints_count == HINTS_WAITING_MAX)
            hints_write_waiting();
        pthread_mutex_unlock(&s->lock);
        return;
    }
    hints_write_waiting();
    if (!h->file)
        h->file = f->name; /* borrowed for the write; not freed below */
    hints_write(h);
    pthread_mutex_unlock(&s->lock);
    if (h->file == f->name)
        h->file = NULL;
    hints_clear(h);
    if (kept)
        free(h);
}
