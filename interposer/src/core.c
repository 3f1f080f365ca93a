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

struct iot_state iot__state = {.lock = PTHREAD_MUTEX_INITIALIZER,
                               .world = MPI_COMM_NULL,
                               .closed_tail = &iot__state.closed,
                               .deferred_tail = &iot__state.deferred};
struct iot_entries iot__real;

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

/* RATIONALE: what a preloaded core (no stub) uses; loaded by the stub, the core searches
 * from its own place in the stub's dlopen, past any tool preloaded after the stub, so
 * iotuner_core_attach replaces these with what the stub found. */
__attribute__((constructor)) static void core_resolve(void) {
#define IOT_RESOLVE(name, params, args)                                                            \
    iot__real.name = (__typeof__(iot__real.name))dlsym(RTLD_NEXT, "PMPI_" #name);
    IOT_ENTRIES(IOT_RESOLVE)
#undef IOT_RESOLVE
}

/* ------------------------------------------------------------ key/values */

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

/*
 * `text` as the terminal may show it, into `out`: the CLI's printable rule
 * (src/iotuner/_printable.py): C0, DEL and C1 as \xNN, U+2028-U+202E and U+2066-U+2069 as
 * \uNNNN; and a byte that does not start a valid UTF-8 character as \xNN. A warning names
 * table lines, file names and paths from the environment, which are data (issue 42: the
 * ESC of a refused fs_type reached the terminal). `out` holds 4 * strlen(text) + 1.
 */
static void printable_into(const char *text, char *out) {
    const unsigned char *c = (const unsigned char *)text;
    while (*c) {
        int n = *c < 0x80             ? 1
                : (*c & 0xe0) == 0xc0 ? 2
                : (*c & 0xf0) == 0xe0 ? 3
                : (*c & 0xf8) == 0xf0 ? 4
                                      : 0;
        unsigned cp = n == 1 ? *c : n == 2 ? (*c & 0x1fu) : n == 3 ? (*c & 0x0fu) : (*c & 0x07u);
        for (int k = 1; k < n; k++) {
            if ((c[k] & 0xc0) != 0x80) {
                n = 0;
                break;
            }
            cp = (cp << 6) | (c[k] & 0x3fu);
        }
        static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (n == 0 || cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            out += sprintf(out, "\\x%02x", *c++); /* not UTF-8: the byte, shown */
            continue;
        }
        if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
            out += sprintf(out, "\\x%02x", cp);
        else if ((cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
            out += sprintf(out, "\\u%04x", cp);
        else {
            memcpy(out, c, (size_t)n);
            out += n;
        }
        c += n;
    }
    *out = '\0';
}

void iot__warn(int speak, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);

    /* Once per distinct message, remembered by a hash in a fixed table: the memory must
     * work when allocation does not. Its own lock: warnings can come from code that holds
     * the state's lock. */
    static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
    static uint64_t seen[256];
    static int nseen;
    uint64_t hash = 1469598103934665603ULL; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)msg; *c; c++)
        hash = (hash ^ *c) * 1099511628211ULL;
    pthread_mutex_lock(&warn_lock);
    int known = 0;
    for (int i = 0; i < nseen && !known; i++)
        known = seen[i] == hash;
    if (!known) {
        if (nseen < (int)(sizeof seen / sizeof seen[0]))
            seen[nseen++] = hash;
        if (speak) {
            static char shown[4 * sizeof msg + 1]; /* under warn_lock */
            printable_into(msg, shown);
            fprintf(stderr, "iotuner: warning: %s\n", shown);
        }
        struct iot_buf quoted = {0};
        iot__buf_json_string(&quoted, msg);
        if (quoted.data && !quoted.failed)
            iot__buf_printf(&iot__state.warnings, "%s%s", iot__state.warnings.len ? "," : "",
                            quoted.data);
        iot__buf_free(&quoted);
    }
    pthread_mutex_unlock(&warn_lock);
}

/* ------------------------------------------------------- between ranks */

int iot__agree(MPI_Comm comm, int ok) {
    int mine = ok != 0, all = 0;
    if (PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return 0;
    return all;
}

/* ---------------------------------------------------- quiet internal calls */

MPI_Errhandler iot__quiet_begin(MPI_File fh) {
    MPI_Errhandler saved = MPI_ERRHANDLER_NULL;
    if (PMPI_File_get_errhandler(fh, &saved) != MPI_SUCCESS)
        return MPI_ERRHANDLER_NULL;
    if (PMPI_File_set_errhandler(fh, MPI_ERRORS_RETURN) != MPI_SUCCESS) {
        PMPI_Errhandler_free(&saved);
        return MPI_ERRHANDLER_NULL;
    }
    return saved;
}

void iot__quiet_end(MPI_File fh, MPI_Errhandler saved) {
    if (saved == MPI_ERRHANDLER_NULL)
        return;
    PMPI_File_set_errhandler(fh, saved);
    PMPI_Errhandler_free(&saved);
}

void iot__file_hold_errhandler(MPI_File fh) {
    if (iot__state.is_openmpi || fh == MPI_FILE_NULL)
        return;
    /* Not freed: this reference is the file's, and its close releases it. */
    MPI_Errhandler held = MPI_ERRHANDLER_NULL;
    PMPI_File_get_errhandler(fh, &held);
}

/* MPI raises a datatype error on MPI_COMM_SELF (MPI 4) or MPI_COMM_WORLD (earlier
 * implementations): both return errors while a query runs. */
struct comm_quiet {
    MPI_Errhandler self, world;
};

static int comm_quiet_begin(struct comm_quiet *q) {
    q->self = q->world = MPI_ERRHANDLER_NULL;
    if (PMPI_Comm_get_errhandler(MPI_COMM_SELF, &q->self) != MPI_SUCCESS)
        return -1;
    if (PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &q->world) != MPI_SUCCESS) {
        PMPI_Errhandler_free(&q->self);
        return -1;
    }
    PMPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    return 0;
}

static void comm_quiet_end(struct comm_quiet *q) {
    PMPI_Comm_set_errhandler(MPI_COMM_SELF, q->self);
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, q->world);
    PMPI_Errhandler_free(&q->self);
    PMPI_Errhandler_free(&q->world);
}

/*
 * Datatypes already known to be valid, with their sizes. RATIONALE: a data call's
 * success does not prove its datatype valid (MPICH returns MPI_SUCCESS when a user error
 * handler returns), and a query on an invalid one aborts, so each datatype is first
 * asked about quietly (six MPI calls); after that, its size comes from here. Freeing any
 * datatype (MPI_Type_free, wrapped) empties every thread's cache, so a handle is never
 * trusted after it was freed.
 */
enum { KNOWN_TYPES = 8 };
static IOT_TLS struct {
    MPI_Datatype type;
    MPI_Count size;
} known_types[KNOWN_TYPES];
static IOT_TLS int known_count, known_next;
static IOT_TLS unsigned known_generation;
unsigned iot__type_generation; /* bumped (atomically) by every MPI_Type_free */
IOT_TLS struct iot_type_memo iot__type_memo;

void iot__types_forget(void) {
    __atomic_add_fetch(&iot__type_generation, 1, __ATOMIC_RELEASE);
}

/* The last datatype this thread asked about, for iot__type_size's first look. */
static uint64_t type_remember(MPI_Datatype datatype, MPI_Count size, unsigned generation,
                              MPI_Count count) {
    iot__type_memo = (struct iot_type_memo){datatype, size, generation, 1};
    return (uint64_t)count * (uint64_t)size;
}

uint64_t iot__type_size_lookup(MPI_Count count, MPI_Datatype datatype) {
    if (count <= 0 || datatype == MPI_DATATYPE_NULL)
        return 0;
    unsigned generation = __atomic_load_n(&iot__type_generation, __ATOMIC_ACQUIRE);
    if (generation != known_generation) {
        known_count = known_next = 0;
        known_generation = generation;
    }
    for (int i = 0; i < known_count; i++)
        if (known_types[i].type == datatype)
            return type_remember(datatype, known_types[i].size, generation, count);
    struct comm_quiet q;
    if (comm_quiet_begin(&q) != 0)
        return 0;
    MPI_Count size = 0;
    int rc = PMPI_Type_size_x(datatype, &size);
    comm_quiet_end(&q);
    if (rc != MPI_SUCCESS || size < 0)
        return 0;
    known_types[known_next].type = datatype;
    known_types[known_next].size = size;
    known_next = (known_next + 1) % KNOWN_TYPES;
    if (known_count < KNOWN_TYPES)
        known_count++;
    return type_remember(datatype, size, generation, count);
}

int iot__comm_usable(MPI_Comm comm, int *rank, int *size) {
    struct comm_quiet q;
    if (comm == MPI_COMM_NULL || comm_quiet_begin(&q) != 0)
        return 0;
    int inter = 1;
    int ok = PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter &&
             PMPI_Comm_rank(comm, rank) == MPI_SUCCESS && PMPI_Comm_size(comm, size) == MPI_SUCCESS;
    comm_quiet_end(&q);
    return ok;
}

int iot__type_shape(MPI_Datatype datatype, struct iot_type_shape *shape) {
    struct comm_quiet q;
    if (datatype == MPI_DATATYPE_NULL || comm_quiet_begin(&q) != 0)
        return -1;
    MPI_Count size = 0, lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    int ok = PMPI_Type_size_x(datatype, &size) == MPI_SUCCESS &&
             PMPI_Type_get_extent_x(datatype, &lb, &extent) == MPI_SUCCESS &&
             PMPI_Type_get_true_extent_x(datatype, &true_lb, &true_extent) == MPI_SUCCESS;
    comm_quiet_end(&q);
    *shape = (struct iot_type_shape){size, extent, true_extent};
    return ok ? 0 : -1;
}

int iot__type_layout(MPI_Datatype datatype, struct iot_layout *layout) {
    struct comm_quiet q;
    *layout = (struct iot_layout){0};
    if (datatype == MPI_DATATYPE_NULL || comm_quiet_begin(&q) != 0)
        return -1;
    int rc = iot__layout_walk(datatype, layout);
    comm_quiet_end(&q);
    return rc;
}

int iot__type_has_holes(MPI_Datatype datatype, int *holes) {
    struct iot_type_shape shape;
    int rc = iot__type_shape(datatype, &shape);
    *holes = iot__type_shape_holes(&shape);
    return rc;
}

/* ---------------------------------------------------------------- time */

/*
 * The counter is used only where the kernel's own clock source is "tsc": the kernel
 * chose it after checking that it runs at a constant rate and agrees between cores.
 */
static int core_tsc_usable(void) {
    if (!IOT_HAVE_TSC)
        return 0;
    char text[32] = "";
    int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    return n > 0 && strncmp(text, "tsc\n", 4) == 0;
}

/* Reads both clocks at (nearly) one moment: the ticks half way through the clock's read. */
static void core_clock_pair(uint64_t *ticks, double *seconds) {
    uint64_t before = iot__ticks();
    *seconds = iot__clock();
    uint64_t after = iot__ticks();
    *ticks = before + (after - before) / 2;
}

static double core_tick_seconds(int wait) {
    struct iot_state *s = &iot__state;
    if (!s->tsc)
        return 1e-9;
    uint64_t ticks;
    double seconds;
    do
        core_clock_pair(&ticks, &seconds);
    while (wait && seconds - s->t0 < 1e-3);
    return ticks > s->tick0 ? (seconds - s->t0) / (double)(ticks - s->tick0) : 0.0;
}

double iot__tick_seconds(void) {
    return core_tick_seconds(1);
}

double iot__tick_seconds_rough(void) {
    return core_tick_seconds(0);
}

/* ------------------------------------------------------------ registry */

/*
 * Each thread remembers the last file it found (iot__file_memo, read by iot__file_find in
 * iot.h), valid while no file has left the list since. RATIONALE: a program makes many calls on one
 * file in a row, and the lookup then needs neither the lock nor the walk. The remembered state
 * cannot be freed under the thread: only closing its own handle frees it, which bumps the
 * generation, and MPI does not allow closing a handle while another thread uses it; a handle MPI
 * reuses after a close is looked up afresh, for the same reason.
 */
unsigned long iot__files_generation; /* written under the state's lock */
IOT_TLS struct iot_file_memo iot__file_memo;

void iot__files_changed(void) {
    __atomic_add_fetch(&iot__files_generation, 1, __ATOMIC_RELEASE);
}

struct iot_file *iot__file_lookup(MPI_File fh) {
    pthread_mutex_lock(&iot__state.lock);
    unsigned long generation = iot__files_generation;
    struct iot_file *f = iot__state.files;
    while (f && f->fh != fh)
        f = f->next;
    pthread_mutex_unlock(&iot__state.lock);
    if (f)
        iot__file_memo = (struct iot_file_memo){fh, f, generation};
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

static size_t core_env_size(const char *name, size_t fallback, int zero_ok) {
    const char *text = getenv(name);
    if (!text || !*text || *text == '-')
        return fallback;
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    return (end && *end == '\0' && (v > 0 || zero_ok)) ? (size_t)v : fallback;
}

/* Makes the log directory (like mkdir -p, each new level 0700) and proves it writable. */
static int core_check_log_dir(const char *dir, char *err, size_t errlen) {
    char path[IOT_ENV_PATH_MAX + 1];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0700);
            *p = '/';
        }
    }
    mkdir(path, 0700);
    char probe[IOT_ENV_PATH_MAX + 64];
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

/* The log directory from the environment; 0, or -1 when its name is too long. */
static int core_log_dir(char *out, size_t outlen) {
    const char *dir = getenv("IOTUNER_LOG_DIR");
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (dir && *dir)
        n = snprintf(out, outlen, "%s", dir);
    else if (state && *state)
        n = snprintf(out, outlen, "%s/iotuner/logs", state);
    else
        n = snprintf(out, outlen, "%s/.local/state/iotuner/logs", home && *home ? home : "/tmp");
    return n >= 0 && (size_t)n < outlen ? 0 : -1;
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

/* Checks the settings every rank reads alike; 0, or -1 with a message. */
static int core_settings(const char *mode, int mode_bad, int tune, char *err, size_t errlen) {
    struct iot_state *s = &iot__state;
    const char *policy = getenv("IOTUNER_HINT_POLICY");
    const char *tag = getenv("IOTUNER_JOB_TAG");
    const char *table = getenv("IOTUNER_TABLE");
    s->policy_app = policy && strcmp(policy, "app") == 0;
    if (mode_bad) {
        snprintf(err, errlen, "IOTUNER_MODE must be off, trace, tune or tune,trace, got '%.64s'",
                 mode);
        return -1;
    }
    if (policy && *policy && strcmp(policy, "table") != 0 && strcmp(policy, "app") != 0) {
        snprintf(err, errlen, "IOTUNER_HINT_POLICY must be table or app, got '%.64s'", policy);
        return -1;
    }
    /* The tag becomes part of the log's file name: no '/', nothing a shell would mangle. */
    if (tag && (strlen(tag) > IOT_JOB_TAG_MAX ||
                strspn(tag, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
                    strlen(tag))) {
        snprintf(err, errlen,
                 "IOTUNER_JOB_TAG must be at most %d letters, digits, '.', '_' or '-', got "
                 "'%.64s'",
                 IOT_JOB_TAG_MAX, tag);
        return -1;
    }
    snprintf(s->job_tag, sizeof s->job_tag, "%s", tag ? tag : "");
    if (tune && (!table || !*table)) {
        snprintf(err, errlen, "tune mode needs IOTUNER_TABLE, the tuning table to read");
        return -1;
    }
    if (table && strlen(table) > IOT_ENV_PATH_MAX) {
        snprintf(err, errlen, "IOTUNER_TABLE is longer than %d characters", IOT_ENV_PATH_MAX);
        return -1;
    }
    snprintf(s->table_path, sizeof s->table_path, "%s", table ? table : "");
    if (core_log_dir(s->log_dir, sizeof s->log_dir) != 0) {
        snprintf(err, errlen, "the log directory's name is longer than %d characters",
                 IOT_ENV_PATH_MAX);
        return -1;
    }
    return 0;
}

/* Test switch IOTUNER_FAULT_ALLOC=RANK:N: on that world rank, the N-th allocation from
 * here on and all later ones fail (alloc.c); N = 0 only counts them, and MPI_Finalize
 * prints the count, so a test can spread its N over the whole run. */
static int fault_rank = -1;
/* Test switch IOTUNER_FAULT_OPEN=KEY=VALUE: a hint added to every tuned open attempt, so
 * the tests can make the table's open fail (no value hints.def allows does) and watch the
 * retry. */
static char fault_open_key[MPI_MAX_INFO_KEY + 1], fault_open_value[MPI_MAX_INFO_VAL + 1];

int iot__fault_open_hint(const char **key, const char **value) {
    *key = fault_open_key;
    *value = fault_open_value;
    return fault_open_key[0] != '\0';
}

static void core_fault_switch(void) {
    const char *open_hint = getenv("IOTUNER_FAULT_OPEN");
    const char *eq = open_hint ? strchr(open_hint, '=') : NULL;
    if (eq && eq > open_hint && (size_t)(eq - open_hint) <= MPI_MAX_INFO_KEY &&
        strlen(eq + 1) <= MPI_MAX_INFO_VAL) {
        snprintf(fault_open_key, sizeof fault_open_key, "%.*s", (int)(eq - open_hint), open_hint);
        snprintf(fault_open_value, sizeof fault_open_value, "%s", eq + 1);
    }
    const char *fault = getenv("IOTUNER_FAULT_ALLOC");
    int rank = -1;
    unsigned long n = 0;
    if (fault && sscanf(fault, "%d:%lu", &rank, &n) == 2 && rank == iot__state.world_rank) {
        fault_rank = rank;
        iot__alloc_fail_from(n);
    }
}

/*
 * Loads the tuning table: rank 0 reads the file, every rank parses the same bytes, and
 * the ranks agree on the outcome. Collective over MPI_COMM_WORLD; 0 or -1 with a message.
 */
static int core_load_table(int ok, char *err, size_t errlen) {
    struct iot_state *s = &iot__state;
    char *text = NULL;
    size_t len = 0;
    enum iot_rule rule = IOT_NRULES;
    char rerr[1024];
    if (s->world_rank == 0 && ok &&
        iot__table_read_file(s->table_path, &text, &len, &rule, rerr, sizeof rerr) != 0) {
        snprintf(err, errlen, "tuning table %s refused (%s): %s", s->table_path,
                 iot__rule_name(rule), rerr);
        ok = 0;
    }
    unsigned long long nbytes = ok ? (unsigned long long)len : 0;
    if (!iot__agree(MPI_COMM_WORLD, ok))
        return -1;
    PMPI_Bcast(&nbytes, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (s->world_rank != 0)
        text = iot__malloc(nbytes + 1);
    if (!iot__agree(MPI_COMM_WORLD, text != NULL)) {
        snprintf(err, errlen, "out of memory reading the tuning table");
        free(text);
        return -1;
    }
    /* In pieces: a count is an int. */
    for (unsigned long long off = 0; off < nbytes; off += (1u << 30)) {
        unsigned long long piece = nbytes - off < (1u << 30) ? nbytes - off : (1u << 30);
        PMPI_Bcast(text + off, (int)piece, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    text[nbytes] = '\0';
    char perr[1024];
    ok = iot__table_parse(text, (size_t)nbytes, &s->table, &rule, perr, sizeof perr) == 0;
    free(text);
    if (!ok)
        snprintf(err, errlen, "tuning table %s refused (%s): %s", s->table_path,
                 iot__rule_name(rule), perr);
    if (!iot__agree(MPI_COMM_WORLD, ok)) {
        if (ok)
            snprintf(err, errlen, "a rank ran out of memory reading the tuning table");
        iot__table_free(&s->table);
        return -1;
    }
    /* Every rank parsed the same bytes, so every rank dropped the same lines. */
    int speak = s->world_rank == 0;
    for (int i = 0; i < s->table.ndropped && i < IOT_WARNINGS_MAX; i++)
        iot__warn(speak, "tuning table %s line %d dropped (%s): %s; the rest applies",
                  s->table_path, s->table.dropped[i].line, iot__rule_name(s->table.dropped[i].rule),
                  s->table.dropped[i].message);
    if (s->table.ndropped > IOT_WARNINGS_MAX)
        iot__warn(speak, "tuning table %s: %d more lines dropped; 'iotuner table check' lists them",
                  s->table_path, s->table.ndropped - IOT_WARNINGS_MAX);
    return 0;
}

/*
 * An MPI sets up a communicator's fast collectives after its first few, and each kind's
 * code, shared memory and buffers at its first use: here, where the program's I/O is not,
 * go the kinds, types, operations and sizes that a file's open, decisions and close use.
 * RATIONALE: MPICH (4.1, ch4) gives a collective its shared-memory algorithm only after
 * more than MPIR_CVAR_POSIX_NUM_COLLS_THRESHOLD (5) calls of that collective on the
 * communicator. With one Allreduce of each kind here (4 in all), the first agreement of
 * IOR's open took 40 us on both ranks and the next three 5 us each; with 7 or more, each
 * took under 1.5 us (2 ranks). So each collective runs WARM_CALLS times.
 */
enum { WARM_CALLS = 8 };

static void warm_up(MPI_Comm world) {
    enum { SHAPE = IOT_NOPS * IOT_NGROUPS + 3 }; /* trace.c's file_reduce */
    int one = 1, sum = 0, three[3] = {0, 0, 0}, three_all[3];
    unsigned long long two[2] = {0, 0}, two_all[2];
    double d[64] = {0}, d_all[64];
    static int shape[2][SHAPE]; /* 18 KB: not on the stack of the program's MPI_Init */
    for (int i = 0; i < WARM_CALLS; i++) {
        PMPI_Barrier(world);
        PMPI_Bcast(&one, 1, MPI_INT, 0, world);
        PMPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, 0, world);
        PMPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, world);
        PMPI_Allreduce(three, three_all, 3, MPI_INT, MPI_MIN, world);
        PMPI_Allreduce(two, two_all, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, world);
    }
    PMPI_Reduce(d, d_all, 64, MPI_DOUBLE, MPI_SUM, 0, world);
    PMPI_Reduce(d, d_all, 64, MPI_DOUBLE, MPI_MIN, 0, world);
    PMPI_Allreduce(shape[0], shape[1], SHAPE, MPI_INT, MPI_MAX, world);
    /* The open's test for a communicator of the world's group (trace.c): its first call
     * builds the world's group, 5 us in the first open of a run. */
    int same = MPI_UNEQUAL;
    PMPI_Comm_compare(world, MPI_COMM_WORLD, &same);
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
    /* Before any MPI call: with another MPI's handles it would crash the program. */
    if (iot__foreign_mpi())
        return;

    PMPI_Comm_rank(MPI_COMM_WORLD, &s->world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &s->world_size);
    core_fault_switch();
    s->tsc = core_tsc_usable();
    core_clock_pair(&s->tick0, &s->t0);
    iot__sample_seed = (uint32_t)(s->tick0 ^ (s->tick0 >> 32)) | 1u; /* xorshift: never 0 */
    int provided = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&provided);
    s->multiple = provided == MPI_THREAD_MULTIPLE;
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    s->start_wall = (double)wall.tv_sec + wall.tv_nsec * 1e-9;
    s->mode_text = mode;
    /* Rows per collective call only when asked for: a person studying a program's calls
     * wants them, the learner does not, and at 4,096 calls they cost up to 4 % of a short
     * I/O phase (bench/trace_cost.py). Summed, a call costs what an independent one does. */
    s->max_records = core_env_size("IOTUNER_TRACE_MAX_RECORDS", 0, 1);
    if (s->max_records > IOT_TRACE_MAX_RECORDS)
        s->max_records = IOT_TRACE_MAX_RECORDS;
    s->sample_below =
        1e-6 * (double)core_env_size("IOTUNER_TRACE_SAMPLE_BELOW_US", IOT_TRACE_SAMPLE_BELOW_US, 1);
    s->max_log_bytes = core_env_size("IOTUNER_LOG_MAX_BYTES", IOT_LOG_MAX_BYTES, 0);
    core_program_name(s->program, sizeof s->program);
    gethostname(s->host, sizeof s->host - 1);
    /* Where relative file names point: the trace keeps names as the program gave them. */
    if (!getcwd(s->cwd, sizeof s->cwd))
        s->cwd[0] = '\0';
    /* Sized from MPI's own constant: Debian's MPICH writes about 2,000 characters. */
    int liblen = 0;
    PMPI_Get_library_version(s->mpi_library, &liblen);
    s->mpi_library[sizeof s->mpi_library - 1] = '\0';
    char *nl = strchr(s->mpi_library, '\n');
    if (nl)
        *nl = '\0';
    s->is_openmpi = strstr(s->mpi_library, "Open MPI") != NULL;
    iot__detect_io_component();

    /* Rank 0 decides what can be read or written; the others hear the verdict. */
    int ok = core_settings(mode, mode_bad, tune, err, sizeof err) == 0;
    if (s->world_rank == 0 && ok && trace && core_check_log_dir(s->log_dir, err, sizeof err) != 0)
        ok = 0;
    if (tune)
        ok = core_load_table(ok, err, sizeof err) == 0;
    /* Every rank detected the same component and holds the same table (ok is agreed when
     * tuning), so all of them rewrite it, or none. A rank without the memory for it makes
     * every rank run untuned: the ranks must never hold different tables, and every one
     * must reach the agreement below (a rank that skipped it once left the others in
     * another collective: MPI_ERR_TRUNCATE, the job killed). */
    if (tune && ok && s->is_ompio &&
        !iot__agree(MPI_COMM_WORLD, iot__table_for_ompio(&s->table) == 0)) {
        snprintf(err, sizeof err,
                 "a rank ran out of memory rewriting the tuning table for Open MPI's OMPIO");
        iot__table_free(&s->table);
        ok = 0;
    }
    ok = iot__agree(MPI_COMM_WORLD, ok);
    if (!ok) {
        iot__warn(s->world_rank == 0, "%s; running untuned and untraced",
                  err[0] ? err : "a rank could not start iotuner");
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
    /* Tuning alone needs it too: a file borrows it (trace.c: file_comm); without it on
     * every rank, each file makes its own. */
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &s->world) != MPI_SUCCESS)
        s->world = MPI_COMM_NULL;
    if (!iot__agree(MPI_COMM_WORLD, s->world != MPI_COMM_NULL)) {
        iot__warn(s->world_rank == 0 && trace,
                  "a rank could not prepare the trace log; running untraced");
        if (s->world != MPI_COMM_NULL)
            PMPI_Comm_free(&s->world);
        trace = 0;
    } else if (trace) {
        /* Only a trace times the program's calls; tuning alone would pay the warm-up's
         * 0.4 ms in every job's MPI_Init to spare its first open about 0.1 ms. */
        warm_up(s->world);
    }
    s->tune = tune;
    s->trace = trace;
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
    if (fault_rank >= 0)
        fprintf(stderr, "iotuner: test: rank %d made %lu allocations\n", fault_rank,
                iot__alloc_count());
    s->active = 0;
    iot__table_free(&s->table);
    iot__buf_free(&s->out);
}
