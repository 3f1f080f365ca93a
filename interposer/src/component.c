/*
 * Which MPI-IO component serves the job's files, and a table's keys in OMPIO's terms.
 *
 * MPICH and its derivatives always use ROMIO, which reports what it applied through
 * MPI_File_get_info. Open MPI chooses between OMPIO and a ROMIO build (romio321 in 4.1,
 * romio341 in 5.0) by its `io` parameter and the components' priorities, and its
 * MPI_File_get_info echoes the keys it was given whichever component runs, so the choice
 * is read from the same control variables Open MPI reads (the MPI tool interface).
 */
#include "iot.h"
#include "mpi_library.h"
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The text of Open MPI's control variable `name`, or "" when it is not there. */
static void cvar_text(const char *name, char *out, size_t outlen) {
    out[0] = '\0';
    int index = -1, count = 0;
    MPI_T_cvar_handle handle;
    if (PMPI_T_cvar_get_index(name, &index) != MPI_SUCCESS ||
        PMPI_T_cvar_handle_alloc(index, NULL, &handle, &count) != MPI_SUCCESS)
        return;
    /* A text variable's count is its buffer size (2,048 in Open MPI 4.1). */
    char *value = count > 0 && count <= 65536 ? calloc((size_t)count + 1, 1) : NULL;
    if (value && PMPI_T_cvar_read(handle, value) == MPI_SUCCESS)
        snprintf(out, outlen, "%s", value);
    free(value);
    PMPI_T_cvar_handle_free(&handle);
}

/* 1 when `component` may be chosen under the `io` selection list (empty: any; "a,b":
 * only those; "^a,b": all but those). */
static int allowed(const char *component, const char *selection) {
    int exclude = selection[0] == '^';
    const char *list = selection + exclude;
    if (list[0] == '\0')
        return 1;
    size_t n = strlen(component);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, component, n) == 0)
            return !exclude;
        p = end ? end + 1 : NULL;
    }
    return exclude;
}

/* Open MPI's io component: the allowed one of highest priority (ompio, romio321, ...). */
static void openmpi_component(char *out, size_t outlen) {
    snprintf(out, outlen, "unknown");
    int provided = 0, ncvars = 0;
    if (PMPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return;
    char selection[256];
    cvar_text("io", selection, sizeof selection);
    int best = -1;
    if (PMPI_T_cvar_get_num(&ncvars) == MPI_SUCCESS) {
        for (int i = 0; i < ncvars; i++) {
            char name[256], suffix[] = "_priority";
            int namelen = (int)sizeof name, verbosity, bind, scope;
            MPI_Datatype type;
            MPI_T_enum enumtype;
            if (PMPI_T_cvar_get_info(i, name, &namelen, &verbosity, &type, &enumtype, NULL, NULL,
                                     &bind, &scope) != MPI_SUCCESS ||
                type != MPI_INT)
                continue;
            size_t len = strlen(name), slen = sizeof suffix - 1;
            if (strncmp(name, "io_", 3) != 0 || len <= 3 + slen ||
                strcmp(name + len - slen, suffix) != 0 || strstr(name, "_delete_priority"))
                continue;
            char component[32];
            size_t clen = len - 3 - slen;
            if (clen >= sizeof component)
                continue;
            memcpy(component, name + 3, clen);
            component[clen] = '\0';
            MPI_T_cvar_handle handle;
            int count = 0, priority = -1;
            if (PMPI_T_cvar_handle_alloc(i, NULL, &handle, &count) != MPI_SUCCESS)
                continue;
            if (count == 1 && PMPI_T_cvar_read(handle, &priority) != MPI_SUCCESS)
                priority = -1;
            PMPI_T_cvar_handle_free(&handle);
            if (priority > best && allowed(component, selection)) {
                best = priority;
                snprintf(out, outlen, "%s", component);
            }
        }
    }
    PMPI_T_finalize();
}

void iot__detect_io_component(void) {
    struct iot_state *s = &iot__state;
    if (s->is_openmpi)
        openmpi_component(s->io_component, sizeof s->io_component);
    else
        snprintf(s->io_component, sizeof s->io_component, "romio");
    s->is_ompio = strcmp(s->io_component, "ompio") == 0;
    /* "Open MPI v4.1.4, ..." */
    const char *v = strstr(s->mpi_library, "Open MPI v");
    s->openmpi_major = v ? atoi(v + strlen("Open MPI v")) : 0;
    /* Measured with iokernel --print-io (formats/ompio_map.def): under Open MPI 5.0.11's
     * romio341, romio_cb_write=disable given at open left one rank writing everything;
     * given with MPI_File_set_info it takes effect. */
    s->reapply_at_open = s->openmpi_major >= 5 && strncmp(s->io_component, "romio", 5) == 0;
}

struct ompio_row {
    const char *key, *value, *ompio_key, *ompio_value;
};
static const struct ompio_row ompio_map[] = {
#define IOT_OMPIO_MAP(key, value, ompio_key, ompio_value, evidence)                                \
    {#key, value, #ompio_key, ompio_value},
#include "ompio_map.def"
#undef IOT_OMPIO_MAP
};
#define NOMPIO_MAP (sizeof ompio_map / sizeof ompio_map[0])

/* The row for key=value, or NULL. */
static const struct ompio_row *ompio_row(const char *key, const char *value) {
    for (size_t i = 0; i < NOMPIO_MAP; i++)
        if (strcmp(ompio_map[i].key, key) == 0 &&
            (strcmp(ompio_map[i].value, "*") == 0 || strcmp(ompio_map[i].value, value) == 0))
            return &ompio_map[i];
    return NULL;
}

int iot__table_for_ompio(struct iot_table *table) {
    struct iot_state *s = &iot__state;
    /* Before 5.0 OMPIO reads any value but "false" as off. */
    const char *off = s->openmpi_major > 0 && s->openmpi_major < 5 ? "true" : "false";
    struct iot_kv *rewritten = calloc((size_t)table->n + 1, sizeof *rewritten);
    int ok = rewritten != NULL;
    for (int e = 0; ok && e < table->n; e++) {
        const struct iot_kv *hints = &table->entries[e].hints;
        for (int i = 0; ok && i < hints->n; i++) {
            const struct ompio_row *row = ompio_row(hints->keys[i], hints->vals[i]);
            const char *value = hints->vals[i];
            if (row && strcmp(row->ompio_value, "@off") == 0)
                value = off;
            else if (row && strcmp(row->ompio_value, "*") != 0)
                value = row->ompio_value;
            char from[IOT_HINT_VALUE_MAX_CHARS + 96], to[IOT_HINT_VALUE_MAX_CHARS + 96] = "";
            snprintf(from, sizeof from, "%s=%s", hints->keys[i], hints->vals[i]);
            if (row)
                snprintf(to, sizeof to, "%s=%s", row->ompio_key, value);
            ok = (!row || iot__kv_set(&rewritten[e], row->ompio_key, value) == 0) &&
                 (strcmp(from, to) == 0 || iot__kv_set(&s->hint_map, from, to) == 0);
        }
    }
    for (int e = 0; ok && e < table->n; e++) {
        iot__kv_clear(&table->entries[e].hints);
        table->entries[e].hints = rewritten[e];
    }
    for (int e = 0; !ok && rewritten && e < table->n; e++)
        iot__kv_clear(&rewritten[e]);
    free(rewritten);
    return ok ? 0 : -1;
}

/* ------------------------------------------------------ a foreign MPI */

/* The C MPI libraries loaded in this process (their file names), distinct files only. */
struct mpi_libraries {
    int n;
    char names[4][512];
    dev_t dev[4];
    ino_t ino[4];
};

static int note_library(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct mpi_libraries *found = data;
    struct stat st;
    if (!info->dlpi_name || !iot_is_mpi_library(info->dlpi_name) || stat(info->dlpi_name, &st) != 0)
        return 0;
    for (int i = 0; i < found->n; i++)
        if (found->dev[i] == st.st_dev && found->ino[i] == st.st_ino)
            return 0;
    if (found->n < 4) {
        snprintf(found->names[found->n], sizeof found->names[0], "%s", info->dlpi_name);
        found->dev[found->n] = st.st_dev;
        found->ino[found->n] = st.st_ino;
        found->n++;
    }
    return 0;
}

int iot__foreign_mpi(void) {
    struct mpi_libraries found = {0};
    dl_iterate_phdr(note_library, &found);
    if (found.n < 2)
        return 0;
    /* The program's own libraries are loaded before those of a preloaded library. */
    int rank = iot_launcher_rank();
    iot__warn(rank <= 0,
              "the program runs with the MPI library %s, but iotuner was built with %s; "
              "running untuned and untraced (build iotuner with the program's MPI: "
              "IOTUNER_MPICC=<its mpicc> ./setup.sh)",
              found.names[0], found.names[found.n - 1]);
    return 1;
}
