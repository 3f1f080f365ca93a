/*
 * core.c: process state, configuration from the environment, start-up at
 * MPI_Init, the size groups, small shared helpers and warnings.
 *
 * RATIONALE: every rank must reach the same verdict on whether iotuner is
 * active, or the ranks would pass different hints (MPI_ERR_NOT_SAME) or wait
 * in reductions others never join. So rank 0 reads the table and checks the
 * log directory, broadcasts the table's bytes, every rank parses the same
 * bytes, and one MPI_Allreduce settles the verdict.
 */
#include "iot.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct iot_state iot__state = {.lock = PTHREAD_MUTEX_INITIALIZER, .world = MPI_COMM_NULL};
struct iot_real iot__real;

const struct iot_op_info iot__ops[IOT_NOPS] = {
#define IOT_OP_INFO(id, name, coll, blocking, kind) {name, coll, blocking, kind},
    IOT_OPS(IOT_OP_INFO)
#undef IOT_OP_INFO
};

/* ---------------------------------------------------------- size groups */

static const uint64_t size_group_first[IOT_NGROUPS] = {
#define IOT_SIZE_GROUP(number, first, end) (uint64_t)(first),
#include "size_groups.def"
#undef IOT_SIZE_GROUP
};

int iot__size_group(uint64_t nbytes) {
    /* Binary search: the last group whose first byte count is <= nbytes. */
    int lo = 0, hi = IOT_NGROUPS - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (nbytes >= size_group_first[mid])
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo + 1;
}

/* ------------------------------------------------------------ real calls */

__attribute__((constructor)) static void core_resolve(void) {
#define IOT_RESOLVE(name)                                                                          \
    iot__real.name = (__typeof__(&PMPI_##name))dlsym(RTLD_NEXT, "PMPI_" #name);
    IOT_REAL_ROUTINES(IOT_RESOLVE)
#undef IOT_RESOLVE
}

/* ------------------------------------------------------------ key/values */

int iot__kv_set(struct iot_kv *kv, const char *key, const char *val) {
    for (int i = 0; i < kv->n; i++) {
        if (strcmp(kv->keys[i], key) == 0) {
            char *copy = strdup(val);
            if (!copy)
                return -1;
            free(kv->vals[i]);
            kv->vals[i] = copy;
            return 0;
        }
    }
    if (kv->n == kv->cap) {
        int cap = kv->cap ? kv->cap * 2 : 8;
        char **keys = realloc(kv->keys, (size_t)cap * sizeof *keys);
        if (!keys)
            return -1;
        kv->keys = keys;
        char **vals = realloc(kv->vals, (size_t)cap * sizeof *vals);
        if (!vals)
            return -1;
        kv->vals = vals;
        kv->cap = cap;
    }
    char *k = strdup(key), *v = strdup(val);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    kv->keys[kv->n] = k;
    kv->vals[kv->n] = v;
    kv->n++;
    return 0;
}

const char *iot__kv_get(const struct iot_kv *kv, const char *key) {
    for (int i = 0; i < kv->n; i++) {
        if (strcmp(kv->keys[i], key) == 0)
            return kv->vals[i];
    }
    return NULL;
}

void iot__kv_clear(struct iot_kv *kv) {
    for (int i = 0; i < kv->n; i++) {
        free(kv->keys[i]);
        free(kv->vals[i]);
    }
    free(kv->keys);
    free(kv->vals);
    kv->keys = kv->vals = NULL;
    kv->n = kv->cap = 0;
}

int iot__kv_from_info(struct iot_kv *kv, MPI_Info info) {
    if (info == MPI_INFO_NULL)
        return 0;
    int nkeys = 0;
    if (PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS)
        return -1;
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        char val[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        if (PMPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS)
            return -1;
        if (PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag) != MPI_SUCCESS)
            return -1;
        if (flag && iot__kv_set(kv, key, val) != 0)
            return -1;
    }
    return 0;
}

/* -------------------------------------------------------------- warnings */

void iot__warn(const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);

    /* Once per distinct message: the warnings list doubles as the memory. Its own lock:
     * warnings can come from code that holds the state's lock. */
    static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&warn_lock);
    struct iot_buf quoted = {0};
    iot__buf_json_string(&quoted, msg);
    int seen = quoted.data && iot__state.warnings.data &&
               strstr(iot__state.warnings.data, quoted.data) != NULL;
    if (!seen) {
        fprintf(stderr, "iotuner: warning: %s\n", msg);
        if (quoted.data)
            iot__buf_printf(&iot__state.warnings, "%s%s", iot__state.warnings.len ? "," : "",
                            quoted.data);
    }
    iot__buf_free(&quoted);
    pthread_mutex_unlock(&warn_lock);
}

/* ---------------------------------------------------------------- time */

double iot__now(void) {
    return PMPI_Wtime() - iot__state.t0;
}

/* ------------------------------------------------------------ registry */

struct iot_file *iot__file_find(MPI_File fh) {
    pthread_mutex_lock(&iot__state.lock);
    struct iot_file *f = iot__state.files;
    while (f && f->fh != fh)
        f = f->next;
    pthread_mutex_unlock(&iot__state.lock);
    return f;
}

/* ----------------------------------------------------------- start-up */

/* Names the program: the executable, or the script an interpreter runs. */
static void core_program_name(char *out, size_t outlen) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    snprintf(out, outlen, "unknown");
    if (n <= 0)
        return;
    exe[n] = '\0';
    const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    snprintf(out, outlen, "%s", base);
    if (strncmp(base, "python", 6) != 0)
        return;
    /* For python, the first argument that is not an option is the script. */
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0)
        return;
    char cmd[4096];
    ssize_t len = read(fd, cmd, sizeof cmd - 1);
    close(fd);
    if (len <= 0)
        return;
    cmd[len] = '\0';
    for (char *arg = cmd + strlen(cmd) + 1; arg < cmd + len; arg += strlen(arg) + 1) {
        if (arg[0] != '-') {
            const char *script = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
            snprintf(out, outlen, "%s", script);
            return;
        }
    }
}

static size_t core_env_size(const char *name, size_t fallback) {
    const char *text = getenv(name);
    if (!text || !*text)
        return fallback;
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    return (end && *end == '\0' && v > 0) ? (size_t)v : fallback;
}

/* Reads the whole table file on rank 0; 0 or -1 with a message. */
static int core_read_file(const char *path, char **text, size_t *len, char *err, size_t errlen) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "cannot read the tuning table %s: %s", path, strerror(errno));
        return -1;
    }
    struct iot_buf b = {0};
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0)
        iot__buf_printf(&b, "%.*s", (int)got, chunk);
    int bad = ferror(fp);
    fclose(fp);
    if (bad || b.failed) {
        snprintf(err, errlen, "cannot read the tuning table %s", path);
        iot__buf_free(&b);
        return -1;
    }
    *text = b.data ? b.data : strdup("");
    *len = b.len;
    return *text ? 0 : -1;
}

/* Makes the log directory (like mkdir -p) and proves it writable. */
static int core_check_log_dir(const char *dir, char *err, size_t errlen) {
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0700);
            *p = '/';
        }
    }
    mkdir(path, 0700);
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.iotuner-probe-XXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(err, errlen, "the log directory %s is not writable: %s", dir, strerror(errno));
        return -1;
    }
    close(fd);
    unlink(probe);
    return 0;
}

static void core_default_log_dir(char *out, size_t outlen) {
    const char *dir = getenv("IOTUNER_LOG_DIR");
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    if (dir && *dir)
        snprintf(out, outlen, "%s", dir);
    else if (state && *state)
        snprintf(out, outlen, "%s/iotuner/logs", state);
    else
        snprintf(out, outlen, "%s/.local/state/iotuner/logs", home && *home ? home : "/tmp");
}

/* Parses IOTUNER_MODE; returns 0 or -1 for a value it does not know. */
static int core_parse_mode(const char *mode, int *tune, int *trace) {
    *tune = *trace = 0;
    if (!mode || !*mode || strcmp(mode, "off") == 0)
        return 0;
    if (strcmp(mode, "trace") == 0)
        *trace = 1;
    else if (strcmp(mode, "tune") == 0)
        *tune = 1;
    else if (strcmp(mode, "tune,trace") == 0 || strcmp(mode, "trace,tune") == 0)
        *tune = *trace = 1;
    else
        return -1;
    return 0;
}

/*
 * iot__start runs inside MPI_Init/MPI_Init_thread once the real call
 * succeeded. Collective over MPI_COMM_WORLD when a mode is set; nothing at
 * all when IOTUNER_MODE is off or unset.
 */
void iot__start(void);
void iot__start(void) {
    struct iot_state *s = &iot__state;
    const char *mode = getenv("IOTUNER_MODE");
    int tune = 0, trace = 0;
    char err[1024] = "";
    int mode_bad = core_parse_mode(mode, &tune, &trace);
    if (!mode_bad && !tune && !trace)
        return;

    PMPI_Comm_rank(MPI_COMM_WORLD, &s->world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &s->world_size);
    s->t0 = PMPI_Wtime();
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    s->start_wall = (double)wall.tv_sec + wall.tv_nsec * 1e-9;
    s->mode_text = mode;
    s->max_records = core_env_size("IOTUNER_TRACE_MAX_RECORDS", 4096);
    s->max_log_bytes = core_env_size("IOTUNER_LOG_MAX_BYTES", (size_t)64 << 20);
    const char *policy = getenv("IOTUNER_HINT_POLICY");
    const char *tag = getenv("IOTUNER_JOB_TAG");
    snprintf(s->job_tag, sizeof s->job_tag, "%s", tag ? tag : "");
    core_default_log_dir(s->log_dir, sizeof s->log_dir);
    core_program_name(s->program, sizeof s->program);
    gethostname(s->host, sizeof s->host - 1);
    int liblen = 0;
    PMPI_Get_library_version(s->mpi_library, &liblen);
    char *nl = strchr(s->mpi_library, '\n');
    if (nl)
        *nl = '\0';
    s->is_openmpi = strstr(s->mpi_library, "Open MPI") != NULL;

    /* Rank 0 decides what can be read or written; the others hear the verdict. */
    int ok = 1;
    char *text = NULL;
    size_t len = 0;
    if (mode_bad) {
        ok = 0;
        snprintf(err, sizeof err, "IOTUNER_MODE must be off, trace, tune or tune,trace, got '%s'",
                 mode);
    } else if (policy && *policy && strcmp(policy, "table") != 0 && strcmp(policy, "app") != 0) {
        ok = 0;
        snprintf(err, sizeof err, "IOTUNER_HINT_POLICY must be table or app, got '%s'", policy);
    }
    s->policy_app = policy && strcmp(policy, "app") == 0;
    const char *table = getenv("IOTUNER_TABLE");
    snprintf(s->table_path, sizeof s->table_path, "%s", table ? table : "");
    if (ok && tune && (!table || !*table)) {
        ok = 0;
        snprintf(err, sizeof err, "tune mode needs IOTUNER_TABLE, the tuning table to read");
    }
    if (ok && strlen(s->log_dir) > 2048) {
        ok = 0;
        snprintf(err, sizeof err, "the log directory name is longer than 2048 characters");
    }
    if (s->world_rank == 0 && ok) {
        if (tune && core_read_file(table, &text, &len, err, sizeof err) != 0)
            ok = 0;
        if (ok && trace && core_check_log_dir(s->log_dir, err, sizeof err) != 0)
            ok = 0;
    }
    unsigned long long nbytes = ok ? (unsigned long long)len : 0;
    PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok && tune) {
        PMPI_Bcast(&nbytes, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
        if (s->world_rank != 0)
            text = malloc(nbytes + 1);
        int have = text != NULL, all = 0;
        PMPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!all) {
            ok = 0;
            snprintf(err, sizeof err, "out of memory reading the tuning table");
        } else {
            /* Broadcast in pieces: a count is an int. */
            for (unsigned long long off = 0; off < nbytes; off += (1u << 30)) {
                unsigned long long piece = nbytes - off < (1u << 30) ? nbytes - off : (1u << 30);
                PMPI_Bcast(text + off, (int)piece, MPI_CHAR, 0, MPI_COMM_WORLD);
            }
            text[nbytes] = '\0';
            char perr[1024];
            if (iot__table_parse(text, (size_t)nbytes, &s->table, perr, sizeof perr) != 0) {
                ok = 0;
                snprintf(err, sizeof err, "tuning table %s: %s", table, perr);
            }
        }
        int all_ok = 0;
        PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (ok && !all_ok)
            snprintf(err, sizeof err, "a rank could not load the tuning table");
        ok = all_ok;
    }
    free(text);
    if (!ok) {
        if (s->world_rank == 0)
            iot__warn("%s; running untuned and untraced", err);
        iot__table_free(&s->table);
        return;
    }

    /* Pattern extraction (SCTuner): nodes and ranks per node. */
    MPI_Comm node = MPI_COMM_NULL;
    int node_rank = 0, node_size = 1;
    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        PMPI_Comm_rank(node, &node_rank);
        PMPI_Comm_size(node, &node_size);
        PMPI_Comm_free(&node);
    }
    int leader = node_rank == 0;
    PMPI_Allreduce(&leader, &s->nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    PMPI_Allreduce(&node_size, &s->ranks_per_node, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (trace && PMPI_Comm_dup(MPI_COMM_WORLD, &s->world) != MPI_SUCCESS)
        s->world = MPI_COMM_NULL;
    s->tune = tune;
    s->trace = trace && s->world != MPI_COMM_NULL;
    s->active = s->tune || s->trace;
}

/* iot__stop runs inside MPI_Finalize before the real call (collective). */
void iot__stop(void);
void iot__stop(void) {
    struct iot_state *s = &iot__state;
    if (!s->active)
        return;
    if (s->trace)
        iot__log_finish();
    s->active = 0;
    iot__table_free(&s->table);
    iot__buf_free(&s->out);
}
