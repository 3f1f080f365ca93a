/*
 * decide.c: which hints to pass, and when.
 *
 * Decisions happen only where every rank of the file's group is present
 * (open, set_view, set_info, blocking collective data access) and are made
 * from inputs every rank shares, so every rank passes the same hints
 * (ROMIO compares them and fails with MPI_ERR_NOT_SAME otherwise).
 */
#include "iot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The hints worth showing in every hints record, besides the requested ones. */
static const char *const tuning_keys[] = {
    "cb_buffer_size",     "cb_nodes",        "cb_config_list", "romio_cb_read",
    "romio_cb_write",     "romio_ds_read",   "romio_ds_write", "ind_rd_buffer_size",
    "ind_wr_buffer_size", "striping_factor", "striping_unit",
};

static int is_striping_key(const char *key) {
    return strcmp(key, "striping_factor") == 0 || strcmp(key, "striping_unit") == 0 ||
           strcmp(key, "start_iodevice") == 0;
}

static int is_open_only_key(const char *key) {
    return is_striping_key(key) || strcmp(key, "cb_nodes") == 0 ||
           strcmp(key, "cb_config_list") == 0;
}

MPI_Info iot__decide_open(MPI_Comm comm, const char *filename, MPI_Info app_info,
                          struct iot_kv *table_hints) {
    struct iot_state *s = &iot__state;
    if (!s->tune)
        return app_info;
    int size = 0;
    PMPI_Comm_size(comm, &size);
    struct iot_query q = {.at = IOT_AT_OPEN,
                          .program = s->program,
                          .file = filename,
                          .nprocs = size,
                          .group = -1,
                          .pattern = -1,
                          .op = -1,
                          .layout = -1};
    const struct iot_entry *e = iot__table_match(&s->table, &q);
    if (!e || e->hints.n == 0)
        return app_info;

    struct iot_kv app = {0};
    MPI_Info info = MPI_INFO_NULL;
    int rc = app_info == MPI_INFO_NULL ? PMPI_Info_create(&info) : PMPI_Info_dup(app_info, &info);
    if (rc != MPI_SUCCESS || iot__kv_from_info(&app, app_info) != 0) {
        iot__kv_clear(&app);
        if (info != MPI_INFO_NULL)
            PMPI_Info_free(&info);
        iot__warn("could not prepare the open hints; opening untuned");
        return app_info;
    }
    for (int i = 0; i < e->hints.n; i++) {
        const char *key = e->hints.keys[i];
        if (s->policy_app && iot__kv_get(&app, key))
            continue;
        PMPI_Info_set(info, key, e->hints.vals[i]);
        iot__kv_set(table_hints, key, e->hints.vals[i]);
    }
    iot__kv_clear(&app);
    return info;
}

void iot__info_release(MPI_Info info, MPI_Info app_info) {
    if (info != app_info && info != MPI_INFO_NULL)
        PMPI_Info_free(&info);
}

/* Applies entry e (NULL: none) at a blocking collective point. */
static void decide_apply(struct iot_file *f, const struct iot_entry *e, const char *at) {
    struct iot_state *s = &iot__state;
    struct iot_kv want = {0}, table = {0};
    if (e) {
        for (int i = 0; i < e->hints.n; i++) {
            if (s->policy_app && iot__kv_get(&f->app, e->hints.keys[i]))
                continue;
            iot__kv_set(&want, e->hints.keys[i], e->hints.vals[i]);
            iot__kv_set(&table, e->hints.keys[i], e->hints.vals[i]);
        }
    }
    /* Keys the previous entry set and this one does not go back to what they were. */
    for (int i = 0; i < f->applied.n; i++) {
        const char *old = iot__kv_get(&f->baseline, f->applied.keys[i]);
        if (!iot__kv_get(&want, f->applied.keys[i]) && old)
            iot__kv_set(&want, f->applied.keys[i], old);
    }
    if (want.n > 0) {
        MPI_Info current = MPI_INFO_NULL, info = MPI_INFO_NULL;
        if (PMPI_File_get_info(f->fh, &current) == MPI_SUCCESS) {
            for (int i = 0; i < want.n; i++) {
                char val[MPI_MAX_INFO_VAL + 1];
                int flag = 0;
                if (!iot__kv_get(&f->baseline, want.keys[i]) &&
                    PMPI_Info_get(current, want.keys[i], MPI_MAX_INFO_VAL, val, &flag) ==
                        MPI_SUCCESS &&
                    flag)
                    iot__kv_set(&f->baseline, want.keys[i], val);
            }
            PMPI_Info_free(&current);
        }
        if (PMPI_Info_create(&info) == MPI_SUCCESS) {
            for (int i = 0; i < want.n; i++)
                PMPI_Info_set(info, want.keys[i], want.vals[i]);
            iot__real.File_set_info(f->fh, info);
            PMPI_Info_free(&info);
        }
        iot__record_hints(f, at, &want, &table, 0);
    }
    iot__kv_clear(&f->applied);
    f->applied = table;
    f->access_entry = e;
    iot__kv_clear(&want);
}

void iot__decide_access(struct iot_file *f, int op, uint64_t my_bytes) {
    struct iot_state *s = &iot__state;
    if (!s->tune || f->comm == MPI_COMM_NULL)
        return;
    /* One reduction agrees on both inputs: the bytes, and whether every rank's view is
     * contiguous (views may differ between ranks; the decision must not). */
    unsigned long long mine[2] = {my_bytes, (unsigned long long)f->view_contiguous}, all[2];
    PMPI_Allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, f->comm);
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
    if (e != f->access_entry)
        decide_apply(f, e, "access");
}

MPI_Info iot__merge_app_info(struct iot_file *f, MPI_Info app_info, const char *at) {
    struct iot_state *s = &iot__state;
    if (app_info == MPI_INFO_NULL)
        return app_info;
    struct iot_kv app = {0};
    if (iot__kv_from_info(&app, app_info) != 0) {
        iot__kv_clear(&app);
        return app_info;
    }
    for (int i = 0; i < app.n; i++)
        iot__kv_set(&f->app, app.keys[i], app.vals[i]);

    /* Under the table policy, the table's keys in force stay in force. */
    struct iot_kv overrides = {0};
    if (s->tune && !s->policy_app) {
        for (int i = 0; i < f->applied.n; i++) {
            const char *theirs = iot__kv_get(&app, f->applied.keys[i]);
            if (theirs && strcmp(theirs, f->applied.vals[i]) != 0)
                iot__kv_set(&overrides, f->applied.keys[i], f->applied.vals[i]);
        }
    }
    MPI_Info info = app_info;
    if (overrides.n > 0 && PMPI_Info_dup(app_info, &info) == MPI_SUCCESS) {
        for (int i = 0; i < overrides.n; i++) {
            PMPI_Info_set(info, overrides.keys[i], overrides.vals[i]);
            iot__kv_set(&app, overrides.keys[i], overrides.vals[i]);
        }
    } else {
        info = app_info;
    }
    iot__record_hints(f, at, &app, &overrides, 0);
    iot__kv_clear(&app);
    iot__kv_clear(&overrides);
    return info;
}

/* The ROMIO driver name ("ufs", "nfs", "lustre", ...) from romio_filesystem_type. */
static void driver_name(MPI_Info info, char *out, size_t outlen) {
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    snprintf(out, outlen, "%s", iot__state.is_openmpi ? "ompio" : "unknown");
    if (PMPI_Info_get(info, "romio_filesystem_type", MPI_MAX_INFO_VAL, val, &flag) != MPI_SUCCESS ||
        !flag)
        return;
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
    if (is_open_only_key(key) && strcmp(at, "open") != 0)
        return "ROMIO reads this key at open only; it is ignored here";
    if (s->is_openmpi && strncmp(key, "romio_", 6) == 0)
        return "Open MPI's OMPIO ignores romio_* keys";
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

void iot__record_hints(struct iot_file *f, const char *at, const struct iot_kv *requested,
                       const struct iot_kv *table, int file_existed) {
    struct iot_state *s = &iot__state;
    pthread_mutex_lock(&s->lock);
    f->hint_seq = s->hint_counter++;
    pthread_mutex_unlock(&s->lock);
    if (!s->trace || !f->traced || f->rank != 0)
        return;
    MPI_Info info = MPI_INFO_NULL;
    struct iot_kv effective = {0};
    char driver[64] = "unknown";
    if (PMPI_File_get_info(f->fh, &info) == MPI_SUCCESS) {
        driver_name(info, driver, sizeof driver);
        for (size_t i = 0; i < sizeof tuning_keys / sizeof tuning_keys[0] + (size_t)requested->n;
             i++) {
            const char *key = i < sizeof tuning_keys / sizeof tuning_keys[0]
                                  ? tuning_keys[i]
                                  : requested->keys[i - sizeof tuning_keys / sizeof tuning_keys[0]];
            char val[MPI_MAX_INFO_VAL + 1];
            int flag = 0;
            if (PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag) == MPI_SUCCESS && flag)
                iot__kv_set(&effective, key, val);
        }
        PMPI_Info_free(&info);
    }
    /* Appended under the state's lock: with MPI_THREAD_MULTIPLE, two threads may decide
     * for two files at once. */
    pthread_mutex_lock(&s->lock);
    if (!iot__log_reserve()) {
        pthread_mutex_unlock(&s->lock);
        iot__kv_clear(&effective);
        return;
    }
    struct iot_buf *b = &s->out;
    iot__buf_printf(b, "{\"record\": \"hints\", \"file\": ");
    iot__buf_json_string(b, f->name);
    iot__buf_printf(b, ", \"seq\": %d, \"at\": \"%s\", \"time_stamp\": %.6f, \"requested\": ",
                    f->hint_seq, at, iot__now());
    iot__buf_json_kv(b, requested);
    iot__buf_printf(b, ", \"table\": ");
    iot__buf_json_kv(b, table);
    iot__buf_printf(b, ", \"app\": ");
    iot__buf_json_kv(b, &f->app);
    iot__buf_printf(b, ", \"effective\": ");
    iot__buf_json_kv(b, &effective);
    iot__buf_printf(b, ", \"driver\": ");
    iot__buf_json_string(b, driver);
    iot__buf_printf(b, ", \"unhonoured\": [");
    int listed = 0;
    for (int i = 0; i < requested->n; i++) {
        char reason_buf[256];
        const char *reason = unhonoured_reason(requested->keys[i], requested->vals[i],
                                               iot__kv_get(&effective, requested->keys[i]), driver,
                                               at, file_existed, reason_buf, sizeof reason_buf);
        if (!reason)
            continue;
        iot__buf_printf(b, "%s{\"key\": ", listed++ ? ", " : "");
        iot__buf_json_string(b, requested->keys[i]);
        iot__buf_printf(b, ", \"reason\": ");
        iot__buf_json_string(b, reason);
        iot__buf_printf(b, "}");
    }
    iot__buf_printf(b, "]}\n");
    pthread_mutex_unlock(&s->lock);
    iot__kv_clear(&effective);
}
