/*
 * iot.h: declarations shared by the interposer's modules.
 *
 *   core.c      process state, configuration, MPI_Init/MPI_Finalize, warnings,
 *               agreement between ranks, quiet internal calls on a file
 *   reader.h    the table reader and its helpers, free of MPI (alloc.c, kv.c, json.c,
 *               table.c): see there
 *   decide.c    hint decisions at open, set_view, set_info and collective access
 *   trace.c     per-rank records, their reduction at close, the job log
 *   wrappers.c  the MPI_ and PMPI_ entry points, thin, and iotuner_core_attach
 *   entries.h   the list of wrapped routines, shared with the preload stub
 *               (interposer/stub/stub.c), which loads this library
 *
 * Internal symbols are iot__*; nothing but the MPI entry points and iotuner_core_attach
 * is exported.
 */
#ifndef IOT_H
#define IOT_H

#include "reader.h"

#include <mpi.h>

#include "entries.h"
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define IOT_EXPORT __attribute__((visibility("default")))
/*
 * Thread-local state on the per-call path. RATIONALE: in the static TLS block a
 * thread-local is read with one instruction; the default model for a shared library asks
 * __tls_get_addr on every access. The stub opens this library with dlopen, so it stays
 * small (under 200 bytes), well within the static TLS space glibc keeps for libraries
 * opened later (512 bytes by default, glibc.rtld.optional_static_tls); should that be
 * used up, dlopen fails and the stub runs the program untuned, with one warning.
 */
#define IOT_TLS _Thread_local __attribute__((tls_model("initial-exec")))

/* ---------------------------------------------------------------- sizes */

enum { IOT_NGROUPS = 56 };

/* iot__size_group returns the size group (1..56) of a per-rank byte count. */
int iot__size_group(uint64_t nbytes);

/* ------------------------------------------------------------ operations */

/*
 * Every traced routine, with its pattern and direction. The large-count (_c)
 * variants share the id of their int-count routine.
 * IOT_OP(id, routine name, collective?, blocking collective?, kind)
 *   kind: 'r' read, 'w' write, 'm' other (meta)
 * RATIONALE: only blocking collectives may carry a decision (an extra
 * MPI_Allreduce); a nonblocking collective must not block, and independent
 * operations must never communicate.
 */
#define IOT_OPS(X)                                                                                 \
    X(OPEN, "MPI_File_open", 1, 1, 'm')                                                            \
    X(CLOSE, "MPI_File_close", 1, 1, 'm')                                                          \
    X(SET_VIEW, "MPI_File_set_view", 1, 1, 'm')                                                    \
    X(SET_INFO, "MPI_File_set_info", 1, 1, 'm')                                                    \
    X(SET_SIZE, "MPI_File_set_size", 1, 1, 'm')                                                    \
    X(PREALLOCATE, "MPI_File_preallocate", 1, 1, 'm')                                              \
    X(SYNC, "MPI_File_sync", 1, 1, 'm')                                                            \
    X(READ_AT, "MPI_File_read_at", 0, 0, 'r')                                                      \
    X(WRITE_AT, "MPI_File_write_at", 0, 0, 'w')                                                    \
    X(READ_AT_ALL, "MPI_File_read_at_all", 1, 1, 'r')                                              \
    X(WRITE_AT_ALL, "MPI_File_write_at_all", 1, 1, 'w')                                            \
    X(IREAD_AT, "MPI_File_iread_at", 0, 0, 'r')                                                    \
    X(IWRITE_AT, "MPI_File_iwrite_at", 0, 0, 'w')                                                  \
    X(IREAD_AT_ALL, "MPI_File_iread_at_all", 1, 0, 'r')                                            \
    X(IWRITE_AT_ALL, "MPI_File_iwrite_at_all", 1, 0, 'w')                                          \
    X(READ_AT_ALL_SPLIT, "MPI_File_read_at_all_begin", 1, 1, 'r')                                  \
    X(WRITE_AT_ALL_SPLIT, "MPI_File_write_at_all_begin", 1, 1, 'w')                                \
    X(READ, "MPI_File_read", 0, 0, 'r')                                                            \
    X(WRITE, "MPI_File_write", 0, 0, 'w')                                                          \
    X(READ_ALL, "MPI_File_read_all", 1, 1, 'r')                                                    \
    X(WRITE_ALL, "MPI_File_write_all", 1, 1, 'w')                                                  \
    X(IREAD, "MPI_File_iread", 0, 0, 'r')                                                          \
    X(IWRITE, "MPI_File_iwrite", 0, 0, 'w')                                                        \
    X(IREAD_ALL, "MPI_File_iread_all", 1, 0, 'r')                                                  \
    X(IWRITE_ALL, "MPI_File_iwrite_all", 1, 0, 'w')                                                \
    X(READ_ALL_SPLIT, "MPI_File_read_all_begin", 1, 1, 'r')                                        \
    X(WRITE_ALL_SPLIT, "MPI_File_write_all_begin", 1, 1, 'w')                                      \
    X(READ_SHARED, "MPI_File_read_shared", 0, 0, 'r')                                              \
    X(WRITE_SHARED, "MPI_File_write_shared", 0, 0, 'w')                                            \
    X(IREAD_SHARED, "MPI_File_iread_shared", 0, 0, 'r')                                            \
    X(IWRITE_SHARED, "MPI_File_iwrite_shared", 0, 0, 'w')                                          \
    X(READ_ORDERED, "MPI_File_read_ordered", 1, 1, 'r')                                            \
    X(WRITE_ORDERED, "MPI_File_write_ordered", 1, 1, 'w')                                          \
    X(READ_ORDERED_SPLIT, "MPI_File_read_ordered_begin", 1, 1, 'r')                                \
    X(WRITE_ORDERED_SPLIT, "MPI_File_write_ordered_begin", 1, 1, 'w')

enum iot_op {
#define IOT_OP_ENUM(id, name, coll, blocking, kind) IOT_OP_##id,
    IOT_OPS(IOT_OP_ENUM)
#undef IOT_OP_ENUM
        IOT_NOPS
};

/* IOT_OP_BLOCKING(op) is iot__ops[op].blocking_collective as a constant expression, so a
 * wrapper's pass-through test needs no table. */
#define IOT_OP_BLOCKING_BIT(id, name, coll, blocking, kind) | ((uint64_t)(blocking) << IOT_OP_##id)
#define IOT_OP_BLOCKING(op) ((((uint64_t)0 IOT_OPS(IOT_OP_BLOCKING_BIT)) >> (op)) & 1)
_Static_assert(IOT_NOPS <= 64, "IOT_OP_BLOCKING keeps one bit per operation");
/* The same for iot__ops[op].collective and for kind 'r' and 'w'. */
#define IOT_OP_COLLECTIVE_BIT(id, name, coll, blocking, kind) | ((uint64_t)(coll) << IOT_OP_##id)
#define IOT_OP_COLLECTIVE(op) ((((uint64_t)0 IOT_OPS(IOT_OP_COLLECTIVE_BIT)) >> (op)) & 1)
#define IOT_OP_READ_BIT(id, name, coll, blocking, kind) | ((uint64_t)((kind) == 'r') << IOT_OP_##id)
#define IOT_OP_READS(op) ((((uint64_t)0 IOT_OPS(IOT_OP_READ_BIT)) >> (op)) & 1)
#define IOT_OP_WRITE_BIT(id, name, coll, blocking, kind)                                           \
    | ((uint64_t)((kind) == 'w') << IOT_OP_##id)
#define IOT_OP_WRITES(op) ((((uint64_t)0 IOT_OPS(IOT_OP_WRITE_BIT)) >> (op)) & 1)

struct iot_op_info {
    const char *name;
    int collective;          /* 1 when every rank of the file's group calls it */
    int blocking_collective; /* 1 when it may synchronise, so a decision may run */
    char kind;               /* 'r', 'w' or 'm' */
};
extern const struct iot_op_info iot__ops[IOT_NOPS];

/* component.c: iot__detect_io_component fills iot__state.io_component and is_ompio
 * (after MPI_Init); iot__table_for_ompio rewrites the table's keys for OMPIO
 * (formats/ompio_map.def) and notes each rewrite in iot__state.hint_map; 0 or -1 (no
 * memory: the table is then left as it was). */
void iot__detect_io_component(void);
int iot__table_for_ompio(struct iot_table *table);
/* iot__foreign_mpi returns 1, after one warning, when the process has loaded a second C
 * MPI library (the program built with another MPI than the interposer, e.g. the standard
 * ABI's libmpi_abi.so): then no MPI call of the interposer's may run, since its handles
 * mean nothing to that library. Calls no MPI routine. */
int iot__foreign_mpi(void);

/* iot__kv_from_info adds every key of info (MPI_INFO_NULL adds none); 0 or -1. */
int iot__kv_from_info(struct iot_kv *kv, MPI_Info info);

/* ------------------------------------------------------------ file state */

/* One traced collective call on this rank, kept until close. Times in iot__ticks(). */
struct iot_coll_rec {
    uint64_t start;
    uint64_t ticks;
    uint64_t bytes;
    int op;
    int hint_set;
    int result; /* MPI error class of the call */
    int shape;  /* the file's access shape at the call (struct iot_file's shapes) */
};

/*
 * Sums of many calls of one routine and size group on this rank.
 * RATIONALE: reading the clock before and after a call costs about 15 ns here (two
 * rdtsc), 2 % of a 4 KiB read from the page cache. So a cell whose calls so far took
 * under iot__state.sample_below each on average, asked after its 64th, 128th, 256th, ...
 * call (the first calls of a file are often its slowest), times only some of its later
 * calls, one in 8 on average at random gaps (a gap that follows no pattern of the
 * program's), and its time is estimated from them (iot__agg_ticks): a summed row's time
 * is what the learner reads, and for thousands of such calls the estimate is within the
 * spread of the calls themselves. Longer calls are timed every one, the clock being under
 * 0.2 % of them.
 */
struct iot_agg {
    uint64_t calls;
    uint64_t bytes;
    uint64_t ticks;       /* time in the timed calls, in iot__ticks() */
    uint64_t first_start; /* iot__ticks() at the earliest call */
    uint64_t timed;       /* calls timed (all of them until sampling began) */
    uint64_t exact_ticks; /* ticks when sampling began (exact_calls calls, all timed) */
    uint64_t exact_calls; /* 0 while every call is timed */
    uint32_t countdown;   /* while sampling: calls left until the next timed one (>= 1) */
    uint32_t unsteady;    /* sampling met an outlier: every later call is timed */
    uint32_t untimed_run; /* while sampling: calls left untimed since the last timed one */
    uint32_t folded;      /* ticks hold an estimate of calls left untimed (unsteady) */
    uint64_t last_end;    /* iot__ticks() at the end of the last timed call */
    double work;          /* while sampling: the program's mean ticks between two calls, */
                          /* while every call was timed (iot__agg_sampling) */
    double sampled_sq;    /* sum of the squared ticks of the calls timed while sampling */
    double folded_var;    /* variance (ticks^2) of the estimate folded into ticks */
    int hint_set;         /* the hints record in force at the last call (-1: none) */
    int shape;            /* the file's access shape at the last call (iot_file's shapes) */
    int noffsets;         /* offsets noted below (2 at most) */
    int64_t offset[2];    /* byte offsets of the cell's first two calls, for the file's */
    uint64_t first_bytes; /* pattern, and the first one's bytes (trace.c: cell_offsets) */
};

enum { IOT_SAMPLE_AFTER = 64, IOT_SAMPLE_GAP_MAX = 15, IOT_SAMPLE_OUTLIER = 8 };
/* A run of untimed calls ends sampling sooner: its mean hides one long call among them,
 * and the run's time is what the calls took (iot__agg_unsteady). */
enum { IOT_SAMPLE_RUN_OUTLIER = 3 };

/* iot__agg_sampling decides, after a cell's IOT_SAMPLE_AFTER-th call and each later power
 * of two while every call is timed, whether to time only some of its later ones (trace.c). */
void iot__agg_sampling(struct iot_agg *a);
/* iot__sample_gap draws the calls until a sampling cell's next timed one: 1 to
 * IOT_SAMPLE_GAP_MAX, evenly (mean 8), from a xorshift generator (not under
 * MPI_THREAD_MULTIPLE, where no cell samples). */
extern uint32_t iot__sample_seed;
static inline uint32_t iot__sample_gap(void) {
    uint32_t x = iot__sample_seed;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    iot__sample_seed = x;
    return 1 + x % IOT_SAMPLE_GAP_MAX;
}

/* iot__agg_ticks is the cell's time in its calls: measured, or, where only some calls
 * after the first exact_calls were timed, those calls' mean time for each untimed one. */
static inline double iot__agg_ticks(const struct iot_agg *a) {
    if (a->timed == a->calls || a->timed == 0)
        return (double)a->ticks;
    if (a->timed <= a->exact_calls) /* not reached: the first call after them is timed */
        return (double)a->ticks * (double)a->calls / (double)a->timed;
    double sampled = (double)(a->ticks - a->exact_ticks);
    return (double)a->exact_ticks +
           sampled * (double)(a->calls - a->exact_calls) / (double)(a->timed - a->exact_calls);
}

/* iot__agg_variance is the variance (ticks^2) of iot__agg_ticks: the sampled calls' spread,
 * scaled to the calls they stand for (a simple random sample, without replacement), plus
 * what was folded in before (iot__agg_unsteady). 0 where every call was timed. */
static inline double iot__agg_variance(const struct iot_agg *a) {
    double n = (double)(a->timed - a->exact_calls), total = (double)(a->calls - a->exact_calls);
    if (a->exact_calls == 0 || a->timed <= a->exact_calls || n < 2 || total <= n)
        return a->folded_var;
    double sum = (double)(a->ticks - a->exact_ticks);
    double spread = (a->sampled_sq - sum * sum / n) / (n - 1);
    return a->folded_var + (spread > 0 ? spread : 0) * total * total / n * (1 - n / total);
}

/*
 * iot__agg_unsteady ends sampling in `a`, before it counts a timed call that started
 * `start`: the estimate so far becomes the cell's measured time, with its variance kept,
 * and every later call is timed. With `run` set, the calls left untimed since the last
 * timed one are counted by the time that passed since it, less the program's own work
 * between calls as it was while every call was timed (a preemption among them counts as
 * their time, as timing each would mostly have counted it). RATIONALE: a sampled call
 * stands for about 8, so one preempted call of 4 ms among 2 us calls moved a row by a
 * factor of 3, and preemptions that hit untimed calls went uncounted (issue 42); on a
 * busy machine a row must say what its calls took, which timing every call does.
 */
static inline void iot__agg_unsteady(struct iot_agg *a, uint64_t start, int run) {
    a->folded_var = iot__agg_variance(a);
    double estimate = iot__agg_ticks(a);
    if (run && a->untimed_run > 0 && a->timed > a->exact_calls) {
        double n = (double)(a->timed - a->exact_calls), k = (double)a->untimed_run;
        double took = (double)(start - a->last_end) - a->work * (k + 1);
        estimate -= (double)(a->ticks - a->exact_ticks) / n * k; /* the mean's share */
        estimate += took > 0 ? took : 0;
    }
    a->ticks = (uint64_t)(estimate + 0.5);
    /* A cell whose calls are all timed (a split collective's) met an outlier too: its
     * time stays measured, not estimated. */
    a->folded = a->folded || a->timed < a->calls;
    a->timed = a->calls;
    a->exact_calls = a->exact_ticks = 0;
    a->countdown = 0;
    a->sampled_sq = 0;
    a->unsteady = 1;
}

/* iot__agg_count adds one timed call (started at `start`, `bytes` moved, `ticks` long,
 * under hints record `hint_set`) to `a`. While sampling, a call over IOT_SAMPLE_OUTLIER
 * times the mean of the timed ones, or a run of untimed calls that took over that many
 * times what the means of calls and of the work between them say, ends it
 * (iot__agg_unsteady). */
static inline void iot__agg_count(struct iot_agg *a, uint64_t start, uint64_t bytes, uint64_t ticks,
                                  int hint_set, int shape) {
    if (a->calls == 0 || start < a->first_start)
        a->first_start = start;
    if (a->exact_calls > 0) { /* sampling */
        double mean = (double)a->ticks / (double)a->timed;
        double run = (double)(start - a->last_end);
        double expected = (mean + a->work) * (double)(a->untimed_run + 1);
        if (a->untimed_run > 0 && run > IOT_SAMPLE_RUN_OUTLIER * expected)
            iot__agg_unsteady(a, start, 1); /* the machine (or the program) did more */
        else if ((double)ticks > IOT_SAMPLE_OUTLIER * mean)
            iot__agg_unsteady(a, start, 0); /* a preempted or stalled call */
        else
            a->sampled_sq += (double)ticks * (double)ticks;
    }
    a->calls++;
    a->timed++;
    a->bytes += bytes;
    a->ticks += ticks;
    a->hint_set = hint_set;
    a->shape = shape;
    a->last_end = start + ticks;
    a->untimed_run = 0;
    if (a->exact_calls == 0 && !a->unsteady && a->timed >= IOT_SAMPLE_AFTER &&
        (a->timed & (a->timed - 1)) == 0)
        iot__agg_sampling(a);
}

/*
 * The layout of one instance of a datatype's data (dtype.c): its bytes and extent, its
 * contiguous pieces (adjacent ones merged), the smallest and the most frequent piece
 * length, and whether tiled instances run into each other (the last piece of one meets
 * the first of the next). iot__type_layout decodes it quietly (0, or -1 when the type is
 * not valid or its constructor not known); iot__layout_walk is the decoder itself.
 */
struct iot_layout {
    int64_t size, extent, pieces, piece_min, piece_typical;
    int joins, known;
};

/* RATIONALE for IOT_MEM_DECODES_MAX: a program that makes (and frees) a datatype for each
 * call would pay a decoding per call; past this many in a file, its memory goes unknown. */
enum { IOT_SHAPES = 8, IOT_MEM_KNOWN = 4, IOT_MEM_DECODES_MAX = 64 };

struct iot_file {
    /* What a data call reads and writes, together first. RATIONALE: between two calls the
     * program's I/O can push iotuner's data out of the CPU's nearest cache, and each cache
     * line a call touches then costs it again: 4 KiB reads from ext4's page cache paid 19
     * ns a call traced against 10 ns from tmpfs (bench/overhead.c). */
    int traced;   /* tracing this file; cleared on every rank together when one fails */
    int tuned;    /* tuning this file; cleared on every rank together when one fails */
    int group;    /* the size group of the last call summed in agg (0 before the first)... */
    int hint_seq; /* seq of the last hints record, -1 when none */
    uint64_t group_bytes;  /* ...and its byte count: calls repeat sizes */
    int64_t second_offset; /* offset of this rank's second data access, -1 before it, -2
                              when a lookup failed (MPI_MODE_SEQUENTIAL): not asked again */
    uint64_t bytes_read, bytes_written, data_calls;
    uint64_t coll_calls; /* blocking collective data calls since open, set_view or set_info */
    struct iot_coll_rec *coll;
    size_t ncoll, capcoll;

    struct iot_file *next;
    MPI_File fh;
    MPI_Comm comm; /* private duplicate of the file's communicator... */
    int borrowed;  /* ...or iot__state.world, lent to this file */
    int rank, size;
    char *name;
    int amode;     /* the access mode of the open: MPI_MODE_SEQUENTIAL forbids get_position */
    char *untuned; /* why the table was not applied to this file (its hints record), or NULL */
    int broken;    /* a local allocation failed: this rank's figures are incomplete */
    double opened_at;
    double closed_at;   /* when the program closed it (its reduction may come later) */
    uint64_t close_seq; /* the order of its close among the files closed on this rank */

    /* hints */
    struct iot_kv app;      /* keys the application set (open, set_info, set_view) */
    struct iot_kv applied;  /* table keys in force (requested by iotuner) */
    struct iot_kv baseline; /* values of applied keys before iotuner changed them */
    struct iot_kv at_open;  /* values of LOWER keys (hints.def) in force after the open */
    MPI_Info open_info;     /* the info they were read from, until the open's hints record */
    struct iot_kv view_set; /* keys the view entry in force set, and their values */
    const struct iot_entry *access_entry;
    const struct iot_entry *view_entry;
    int access_stale; /* a view decision changed keys: the next access decision applies */
    uint8_t no_entry_logged[IOT_NGROUPS + 1]; /* bit op*2+layout: a no_entry record was written */

    /* trace */
    /* Summed calls, a row of IOT_NGROUPS per routine, allocated at the routine's first
     * summed call. RATIONALE: all rows at open (90 KB) cost 31 us of fresh pages in the
     * first open of a run, while a file uses one or two (bench/trace_cost.py). */
    struct iot_agg *agg[IOT_NOPS];
    int64_t first_offset; /* byte offset of this rank's first data access, -1 before it */
    uint64_t first_bytes; /* bytes of the first access (where a contiguous rank goes next) */
    int contiguous;       /* 0 once any file view had holes (for the trace) */
    int64_t view_block;   /* the last view with holes: its data in one piece, the bytes of */
    int64_t view_extent;  /* that piece and the filetype's extent; 0: several pieces */
    int view_contiguous;  /* the view in force has no holes (for decisions) */

    /* a split collective between begin and end */
    int split_op;
    uint64_t split_start;
    uint64_t split_bytes;

    /* The access shape (formats/README.md, "Access shape"): the layouts of the view in
     * force and of the last data call's memory datatype, decoded once each, and the
     * distinct pairs of them the file's calls had (a row names one by its index; past
     * IOT_SHAPES pairs, IOT_SHAPES: unknown). */
    struct iot_layout view_layout;
    MPI_Datatype mem_type;   /* the datatype mem_layout is of... */
    unsigned mem_generation; /* ...while iot__type_generation was this */
    int mem_decodes;         /* memory datatypes decoded for this file so far */
    struct iot_layout mem_layout;
    struct iot_mem_known {
        MPI_Datatype type;
        unsigned generation;
        struct iot_layout layout;
    } mem_known[IOT_MEM_KNOWN]; /* datatypes decoded for this file, the latest first */
    int shape, nshapes;         /* the pair in force (-1 before the first data call) */
    struct iot_shape {
        struct iot_layout view, mem;
    } shapes[IOT_SHAPES];
};

/* ----------------------------------------------------------------- state */

struct iot_state {
    int active; /* tuning or tracing on, after a successful MPI_Init */
    int tune, trace;
    int policy_app; /* 1: application's keys win; 0: table's keys win */
    int world_rank, world_size, nodes, ranks_per_node;
    double t0;         /* iot__clock() at MPI_Init... */
    uint64_t tick0;    /* ...and iot__ticks() then */
    int tsc;           /* iot__ticks() reads the CPU's time stamp counter */
    int multiple;      /* MPI_THREAD_MULTIPLE: threads may be inside wrappers at once */
    double start_wall; /* Unix time at MPI_Init */
    /* A private duplicate of MPI_COMM_WORLD: lent to one followed file at a time whose
     * group is the world's (trace.c: file_comm), then the log gather's at MPI_Finalize. */
    MPI_Comm world;
    int world_lent; /* a file holds it on this rank */
    char program[256];
    char host[256];
    char cwd[4096]; /* rank 0's working directory at MPI_Init ("" when unknown) */
    char mpi_library[MPI_MAX_LIBRARY_VERSION_STRING + 1];
    int is_openmpi;
    /* The MPI-IO component serving files: "romio" (MPICH and its derivatives), or Open
     * MPI's choice by its io parameters ("ompio", "romio321", ...), or "unknown". */
    char io_component[32];
    int is_ompio;
    int openmpi_major;      /* 4 for "Open MPI v4.1.4"; 0 for other MPIs */
    int reapply_at_open;    /* Open MPI 5's ROMIO ignores hints given at open (component.c) */
    struct iot_kv hint_map; /* table key=value -> what OMPIO got ("" = left out) */
    char log_dir[IOT_ENV_PATH_MAX + 1];
    char job_tag[IOT_JOB_TAG_MAX + 1];
    char table_path[IOT_ENV_PATH_MAX + 1];
    const char *mode_text;
    size_t max_records;   /* collective rows kept per file */
    double sample_below;  /* seconds: shorter calls are sampled (struct iot_agg); 0: none */
    size_t max_log_bytes; /* per rank */
    uint64_t dropped_rows;
    int hint_counter; /* source of hints record seq numbers */
    struct iot_table table;
    struct iot_file *files;
    struct iot_closed *closed;       /* rank 0 of each file's group: closed files whose */
    struct iot_closed **closed_tail; /* rows wait for MPI_Finalize, in order of closing */
    uint64_t closes;                 /* files closed so far (their close_seq) */
    struct iot_file *deferred;       /* closed files of the world's group, not reduced yet, */
    struct iot_file **deferred_tail; /* in order of closing (the same on every rank) */
    int ndeferred;
    struct iot_closed **reduce_from; /* closed_tail when the first of them closed, or NULL */
    struct iot_buf out;              /* this rank's finished log lines */
    struct iot_buf warnings;         /* JSON strings, comma separated, for the end record */
    pthread_mutex_t lock;
};

extern struct iot_state iot__state;

/*
 * iot__clock returns seconds of CLOCK_MONOTONIC, iot__now seconds since MPI_Init.
 * RATIONALE: every traced call reads the clock twice. CLOCK_MONOTONIC counts seconds as
 * MPI_Wtime does (MPICH's reads CLOCK_REALTIME), is never stepped by clock corrections,
 * and the C library answers it without a system call or a pass through MPI.
 */
static inline double iot__clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static inline double iot__now(void) {
    return iot__clock() - iot__state.t0;
}

/*
 * iot__ticks times the calls of a traced file: the CPU's time stamp counter where the
 * kernel keeps its own clock with it (so it is steady and the same on every core), else
 * nanoseconds of CLOCK_MONOTONIC. iot__tick_seconds gives the seconds of one tick,
 * measured against CLOCK_MONOTONIC over the run so far (at least a millisecond of it).
 * RATIONALE: a traced call reads the time twice, and reading the counter costs a fraction
 * of a clock_gettime (22 against 70 to 100 ns on the development machine, a virtual one);
 * the conversion waits for the file's close.
 */
#if defined(__x86_64__) || defined(__i386__)
#define IOT_HAVE_TSC 1
#else
#define IOT_HAVE_TSC 0
#endif
/* iot__ticks_with is iot__ticks with iot__state.tsc read by the caller beforehand. */
static inline uint64_t iot__ticks_with(int tsc) {
#if IOT_HAVE_TSC
    if (tsc)
        return __builtin_ia32_rdtsc();
#else
    (void)tsc;
#endif
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static inline uint64_t iot__ticks(void) {
    return iot__ticks_with(iot__state.tsc);
}
double iot__tick_seconds(void);
/* iot__tick_seconds_rough is iot__tick_seconds over the run so far, however short (0.0
 * when no tick has passed): for a threshold, where waiting for a millisecond would cost
 * the program more than the precision is worth. */
double iot__tick_seconds_rough(void);

/*
 * iot__calls_lock and iot__calls_unlock guard file state that data calls update.
 * RATIONALE: below MPI_THREAD_MULTIPLE, MPI is never entered by two threads at once (the
 * program orders its calls, and that ordering also makes one thread's updates visible to
 * the next), so only MPI_THREAD_MULTIPLE pays for the lock.
 */
static inline void iot__calls_lock(void) {
    if (iot__state.multiple)
        pthread_mutex_lock(&iot__state.lock);
}
static inline void iot__calls_unlock(void) {
    if (iot__state.multiple)
        pthread_mutex_unlock(&iot__state.lock);
}

/*
 * iot__warn prints one "iotuner: warning:" line once per distinct message, and only
 * where speak is non-zero: callers pass "I am rank 0 of the communicator that agreed on
 * this", so a job prints a warning once, not once per rank. Every rank keeps the message
 * for its log's end record.
 */
void iot__warn(int speak, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * iot__agree returns 1 when ok is non-zero on every rank of comm, else 0 (collective).
 * RATIONALE: wherever a local failure would change which collective calls a rank makes
 * next, the ranks first agree, so they all go on, or all stop, together.
 */
int iot__agree(MPI_Comm comm, int ok);

/*
 * iot__quiet_begin sets MPI_ERRORS_RETURN on fh for an internal call and returns the
 * error handler to put back with iot__quiet_end (MPI_ERRHANDLER_NULL when it could not be
 * read; then the caller must not make the internal call). A call iotuner makes on the
 * program's file must never fire the program's handler.
 */
MPI_Errhandler iot__quiet_begin(MPI_File fh);
void iot__quiet_end(MPI_File fh, MPI_Errhandler saved);

/*
 * iot__file_hold_errhandler gives a file just opened, which inherited MPI_FILE_NULL's
 * error handler, the reference to that handler its open did not take, on MPIs whose ROMIO
 * glue takes none (MPICH and its derivatives; nothing on Open MPI). Local; it changes no
 * handler and never fires one. Call it where the open returned a file, before any other
 * call on it, and not after setting a handler on the file (that took a reference).
 * RATIONALE: MPICH's ROMIO (4.0 to 5.0 at least) copies MPI_FILE_NULL's handler into a
 * new file without a reference, and its MPI_File_close releases one (mpi-io/close.c sets
 * MPI_ERRORS_RETURN on the file, which frees the handler it held). Each open/close pair
 * thus drops a reference of a user handler, which MPICH frees after as many pairs as it
 * had references, while MPI_FILE_NULL still carries it. A plain program never looks at it
 * again until its next error; iot__quiet_end hands it back to MPI_File_set_errhandler,
 * which rejects a freed handler ("Error handler is not a file error handler") and aborts
 * (issue 24: the third open of a trace run). Setting the same handler again on the file
 * would not help: the set releases the reference the file never had. The reference
 * MPI_File_get_errhandler adds is the one the open should have taken, so it is kept, not
 * freed, and the close's release balances it. Open MPI takes a reference at open and
 * releases it at close itself.
 */
void iot__file_hold_errhandler(MPI_File fh);

/*
 * iot__type_size returns count * the size of datatype in bytes, or 0 when the datatype
 * is not valid; it never fires an error handler (see core.c for how).
 */
uint64_t iot__type_size_lookup(MPI_Count count, MPI_Datatype datatype);
/* The last datatype a thread's lookup found valid: most calls repeat it. */
struct iot_type_memo {
    MPI_Datatype type;
    MPI_Count size;
    unsigned generation; /* iot__type_generation when it was found */
    int valid;
};
extern IOT_TLS struct iot_type_memo iot__type_memo;
extern unsigned iot__type_generation;
/* Inlined: a traced call asks it once (the compiler would otherwise call it). */
static inline __attribute__((always_inline)) uint64_t iot__type_size(MPI_Count count,
                                                                     MPI_Datatype datatype) {
    const struct iot_type_memo *m = &iot__type_memo;
    if (count > 0 && m->valid && m->type == datatype &&
        m->generation == __atomic_load_n(&iot__type_generation, __ATOMIC_ACQUIRE))
        return (uint64_t)count * (uint64_t)m->size;
    return iot__type_size_lookup(count, datatype);
}
/* iot__fault_open_hint gives the test switch IOTUNER_FAULT_OPEN's hint; 1 when set. */
int iot__fault_open_hint(const char **key, const char **value);
/*
 * iot__comm_usable reports whether comm is a valid intracommunicator (1, with *rank and
 * *size) or not (0), quietly: MPI_File_open answers a bad communicator with an error, and
 * iotuner's own query must not turn that into an abort.
 */
int iot__comm_usable(MPI_Comm comm, int *rank, int *size);
/* iot__types_forget drops what iot__type_size knows (a datatype was freed). */
void iot__types_forget(void);
/* iot__type_has_holes sets *holes (size differs from extent); 0, or -1 when datatype is
 * not valid. Quiet, like iot__type_size. */
int iot__type_has_holes(MPI_Datatype datatype, int *holes);
/* The bytes of a datatype's data, its extent and its true extent (first to last byte of
 * data); iot__type_shape is 0, or -1 when datatype is not valid. Quiet, like the above. */
struct iot_type_shape {
    MPI_Count size, extent, true_extent;
};
int iot__type_shape(MPI_Datatype datatype, struct iot_type_shape *shape);
static inline int iot__type_shape_holes(const struct iot_type_shape *shape) {
    return !(shape->size == shape->extent && shape->size == shape->true_extent);
}
int iot__type_layout(MPI_Datatype datatype, struct iot_layout *layout);
int iot__layout_walk(MPI_Datatype datatype, struct iot_layout *layout);
/* The layout of plain bytes: a byte view, a contiguous buffer. */
static inline struct iot_layout iot__layout_bytes(void) {
    return (struct iot_layout){1, 1, 1, 1, 1, 1, 1};
}

/* iot__file_find returns the state of fh, or NULL when iotuner does not follow it: the
 * thread's last answer while no file left the list since (core.c), else the list's. */
struct iot_file_memo {
    MPI_File fh;
    struct iot_file *f;
    unsigned long generation; /* iot__files_generation when f was found */
};
extern IOT_TLS struct iot_file_memo iot__file_memo;
extern unsigned long iot__files_generation;
struct iot_file *iot__file_lookup(MPI_File fh);
static inline struct iot_file *iot__file_find(MPI_File fh) {
    const struct iot_file_memo *m = &iot__file_memo;
    if (m->f && m->fh == fh &&
        m->generation == __atomic_load_n(&iot__files_generation, __ATOMIC_ACQUIRE))
        return m->f;
    return iot__file_lookup(fh);
}
/* iot__files_changed must be called (state lock held) whenever a file leaves the list. */
void iot__files_changed(void);

/* ------------------------------------------------------------------ real */

/*
 * The real MPI routines of every wrapped one (entries.h), under their names without MPI_:
 * iot__real.File_open is PMPI_File_open. Found with dlsym(RTLD_NEXT, "PMPI_...") when the
 * library loads, and replaced by those the stub found when the stub loaded the core
 * (iotuner_core_attach). Every wrapper calls through these.
 */
extern struct iot_entries iot__real;

/* ---------------------------------------------------------------- decide */

/*
 * iot__decide_open merges the application's info with the table's open-time
 * hints (collective over comm, the open's agreement communicator, iot__agreement_comm, of
 * which the caller is rank of size). Returns the info to pass to
 * the real open: either app_info itself (nothing to add) or a new info that the caller frees with
 * iot__info_release. Fills table_hints with the keys the table asked for. When the table
 * names the file system it was measured on (its header's fs_type) and the file is on
 * another on any rank, or a rank cannot tell, the file stays untuned: app_info, and why
 * in `untuned` (agreed by every rank; "" when the file is tuned).
 */
MPI_Info iot__decide_open(MPI_Comm comm, int rank, int size, const char *filename,
                          MPI_Info app_info, struct iot_kv *table_hints, char *untuned,
                          size_t untuned_len);

/*
 * iot__fs_type_of writes the type of the file system that holds filename, as
 * /proc/self/mounts names it ("ext4", "lustre", "fuse.glusterfs"), into type; for a file
 * that does not exist yet, of its directory. A ROMIO prefix ("ufs:") is not part of the
 * path. 0, or -1 when the path or the mounts cannot be read. Local (fs.c).
 */
int iot__fs_type_of(const char *filename, char *type, size_t len);
void iot__info_release(MPI_Info info, MPI_Info app_info);

/*
 * iot__decide_access runs at a blocking collective data access: agrees on the
 * size group with one MPI_Allreduce on the file's private communicator and
 * applies the matching access entry with MPI_File_set_info when it differs
 * from the one in force.
 */
void iot__decide_access(struct iot_file *f, int op, uint64_t my_bytes);
/*
 * iot__access_decision_due counts a blocking collective data call on f and reports whether
 * a decision runs at it (the schedule in decide.c; never when the table has no access
 * entries). The count is the same on every rank, so no message is needed.
 */
int iot__access_decision_due(struct iot_file *f);

/* What a set_view or set_info passed to MPI, for the hints record written after it. */
struct iot_pending {
    int record;
    struct iot_kv requested, table, held;
};

/*
 * iot__merge_app_info returns the info to pass to set_info: the application's keys with
 * the table's keys in force laid over them as the policy says. Returns app_info when
 * nothing changes; otherwise a new info for iot__info_release. Records the application's
 * keys in f->app, restarts the access decision schedule, and fills *p for
 * iot__pending_finish.
 */
MPI_Info iot__merge_app_info(struct iot_file *f, MPI_Info app_info, struct iot_pending *p);
/*
 * iot__decide_view does the same for set_view, and when the table has view entries
 * decides (collective: one MPI_Allreduce) which applies to the new view's layout and lays
 * its keys over the info, so independent access runs with hints chosen for it.
 */
MPI_Info iot__decide_view(struct iot_file *f, MPI_Info app_info, MPI_Datatype filetype,
                          struct iot_pending *p);
/* iot__pending_finish writes the hints record of a set_view or set_info when it succeeded
 * (at: "set_view" or "set_info") and frees *p. */
void iot__pending_finish(struct iot_file *f, const char *at, struct iot_pending *p, int result);

/*
 * iot__record_hints makes a hints record (rank 0 of the file only) with the effective
 * values from MPI_File_get_info, read now and written at MPI_Finalize. at: "open",
 * "set_view", ...
 * requested: the keys iotuner passed; table: the table's keys; held: table keys not
 * applied because they would raise a LOWER key above its value at open (may be NULL).
 */
void iot__record_hints(struct iot_file *f, const char *at, const struct iot_kv *requested,
                       const struct iot_kv *table, const struct iot_kv *held, int file_existed);
/* iot__info_names_striping says whether info holds a striping key (MPI_INFO_NULL: no). */
int iot__info_names_striping(MPI_Info info);
/* iot__hints_finish writes the hints records still waiting (decide.c); at MPI_Finalize. */
void iot__hints_finish(void);
/*
 * iot__note_open_values keeps, right after the open, the values MPI uses for the keys
 * hints.def marks LOWER, the ceiling for later changes; 0 or -1 (no memory).
 */
int iot__note_open_values(struct iot_file *f);
/*
 * iot__reapplicable splits the table's open hints, for an MPI that ignored them at open
 * (Open MPI 5's ROMIO), into those MPI_File_set_info may give (give) and the LOWER keys
 * that would raise the value the open left in force (held): that MPI sized its buffers at
 * open with its own values, and a raise after open overflows them (formats/hint_safety.md).
 * A LOWER key get_info does not report is held. Rank-local (reads MPI_File_get_info);
 * 0 or -1 (no memory; give and held may then hold some keys).
 */
int iot__reapplicable(MPI_File fh, const struct iot_kv *table, struct iot_kv *give,
                      struct iot_kv *held);

/* ----------------------------------------------------------------- trace */

/*
 * iot__agreement_comm is the communicator for iotuner's agreements while a file is opened
 * on comm (of size ranks), before the file has its own: the world's duplicate when comm
 * has the world's group, else comm. RATIONALE: MPICH sets up a communicator's fast
 * collectives at its 6th collective (MPIR_CVAR_POSIX_NUM_COLLS_THRESHOLD), 30-70 us; a
 * program's own communicator (IOR's) may not have had that many, and the six agreements
 * of a tuned open moved the setup into the program's I/O phase (bench/trace_cost.py). The
 * world's duplicate was warmed at MPI_Init. The agreements keep one order on it on every
 * rank: a correct program makes its collective calls on overlapping groups in one order
 * (the world's duplicate is never used under MPI_THREAD_MULTIPLE).
 */
MPI_Comm iot__agreement_comm(MPI_Comm comm, int size);
/*
 * iot__file_open_state creates the state of a newly opened file. Collective over comm,
 * the file's, and agree, its agreement communicator (iot__agreement_comm): every rank
 * follows the file, or (when one cannot) none does and NULL comes back.
 */
struct iot_file *iot__file_open_state(MPI_Comm comm, MPI_Comm agree, int rank, const char *filename,
                                      MPI_File fh, int amode);
/* iot__file_close_state reduces the file's records and frees its state (collective); the
 * rows of what was reduced are written at MPI_Finalize (iot__log_finish). */
void iot__file_close_state(struct iot_file *f, uint64_t close_start, uint64_t close_ticks,
                           int result);
/* iot__trace_call records one call on this rank (from iot__ticks() start, for ticks);
 * result is the call's MPI error code. */
void iot__trace_call(struct iot_file *f, int op, uint64_t start, uint64_t ticks, uint64_t bytes,
                     int result);
/* IOT_OP_SPLIT(op): the begin of a split collective, timed until its end call. */
#define IOT_OP_SPLIT(op)                                                                           \
    ((op) == IOT_OP_READ_AT_ALL_SPLIT || (op) == IOT_OP_WRITE_AT_ALL_SPLIT ||                      \
     (op) == IOT_OP_READ_ALL_SPLIT || (op) == IOT_OP_WRITE_ALL_SPLIT ||                            \
     (op) == IOT_OP_READ_ORDERED_SPLIT || (op) == IOT_OP_WRITE_ORDERED_SPLIT)
/* iot__count_data adds a successful data call of op (a constant) to the file's totals. */
static inline __attribute__((always_inline)) void iot__count_data(struct iot_file *f, int op,
                                                                  uint64_t bytes) {
    if (IOT_OP_READS(op))
        f->bytes_read += bytes;
    else if (IOT_OP_WRITES(op))
        f->bytes_written += bytes;
    f->data_calls++;
}
/*
 * iot__trace_data is iot__trace_call for a data access of a traced file, with op a
 * constant. RATIONALE: most calls of a program repeat the one before (a successful call
 * of one routine, a collective one while its record array has room, an independent one
 * of the size just summed), and for those the work is a few additions and stores the
 * compiler picks for the routine at hand, without a call or a table lookup; the rest, and
 * MPI_THREAD_MULTIPLE, which needs the lock, take iot__trace_call.
 */
static inline __attribute__((always_inline)) void iot__trace_data(struct iot_file *f, int op,
                                                                  uint64_t start, uint64_t ticks,
                                                                  uint64_t bytes, int result) {
    if (result != MPI_SUCCESS || iot__state.multiple)
        goto general;
    if (IOT_OP_COLLECTIVE(op) && f->ncoll < f->capcoll) {
        f->coll[f->ncoll++] =
            (struct iot_coll_rec){start, ticks, bytes, op, f->hint_seq, 0, f->shape};
    } else {
        /* A collective call past the record cap is summed like an independent one. */
        if (IOT_OP_COLLECTIVE(op) && f->ncoll < iot__state.max_records)
            goto general; /* the records grow there */
        struct iot_agg *row = f->agg[op];
        if (!row || f->group == 0 || bytes != f->group_bytes)
            goto general;
        iot__agg_count(&row[f->group - 1], start, bytes, ticks, f->hint_seq, f->shape);
    }
    iot__count_data(f, op, bytes);
    return;
general:
    iot__trace_call(f, op, start, ticks, bytes, result);
}
/*
 * iot__trace_untimed says whether a data access about to start goes untimed (struct
 * iot_agg says why): only a summed call (op a constant) of the size the file's last summed
 * call had (bytes: the call's, from iot__type_size), in a cell that samples.
 */
static inline __attribute__((always_inline)) int iot__trace_untimed(struct iot_file *f, int op,
                                                                    uint64_t bytes) {
    /* Not a collective that gets a row of its own, nor a split or nonblocking one (timed
     * from its begin to its end). */
    if (IOT_OP_COLLECTIVE(op) &&
        (!IOT_OP_BLOCKING(op) || IOT_OP_SPLIT(op) || f->ncoll < iot__state.max_records))
        return 0;
    struct iot_agg *row = f->agg[op];
    if (!row || f->group == 0 || iot__state.multiple)
        return 0;
    struct iot_agg *a = &row[f->group - 1];
    if (a->countdown == 0)
        return 0;
    if (bytes != f->group_bytes)
        return 0;
    if (--a->countdown > 0)
        return 1;
    a->countdown = iot__sample_gap();
    return 0;
}
/* iot__trace_untimed_done counts a successful call iot__trace_untimed left untimed. */
static inline __attribute__((always_inline)) void iot__trace_untimed_done(struct iot_file *f,
                                                                          int op, uint64_t bytes) {
    struct iot_agg *a = &f->agg[op][f->group - 1];
    a->calls++;
    a->untimed_run++;
    a->bytes += bytes;
    a->hint_set = f->hint_seq;
    a->shape = f->shape;
    iot__count_data(f, op, bytes);
}
/*
 * iot__trace_offset_before returns the byte offset a data access is about to start at
 * (offset: the explicit offset, or -1 for file-pointer routines), or -1 when it cannot be
 * known without an erroneous call (MPI_MODE_SEQUENTIAL). Quiet: never fires a handler.
 */
int64_t iot__trace_offset_before(struct iot_file *f, int op, MPI_Offset offset);
/*
 * iot__trace_offset_needed says whether a data access should look up its offset: only a
 * rank's first two accesses, and the first two of each summed row, do. RATIONALE: the
 * lookup is an MPI call or two; two offsets give the rank's stride, which tells
 * interleaved from contiguous access, and later accesses pay nothing. Per row, so that
 * the file's pattern comes from the calls that carry its bytes, not from a header's.
 * iot__trace_offset_wanted is the test for a call of another size than the last one.
 */
int iot__trace_offset_wanted(const struct iot_file *f, int op, uint64_t bytes);
static inline __attribute__((always_inline)) int iot__trace_offset_needed(const struct iot_file *f,
                                                                          int op, uint64_t bytes) {
    if (f->second_offset == -1) /* -2: not to be known */
        return 1;
    const struct iot_agg *row = f->agg[op];
    if (row && f->group != 0 && bytes == f->group_bytes)
        return row[f->group - 1].noffsets < 2;
    return iot__trace_offset_wanted(f, op, bytes);
}
/* iot__trace_offset notes where a successful access of bytes > 0 started (offset >= 0),
 * after the call was counted. */
void iot__trace_offset(struct iot_file *f, int op, int64_t offset, uint64_t bytes);
/* iot__trace_memory notes the memory datatype of a successful data call of bytes > 0 when
 * it is not the last one's (iot__trace_memory_check): its layout, decoded once. */
void iot__trace_memory(struct iot_file *f, MPI_Datatype datatype);
static inline __attribute__((always_inline)) void iot__trace_memory_check(struct iot_file *f,
                                                                          MPI_Datatype datatype) {
    if (datatype != f->mem_type ||
        f->mem_generation != __atomic_load_n(&iot__type_generation, __ATOMIC_ACQUIRE))
        iot__trace_memory(f, datatype);
}
/* iot__trace_view notes whether a file view leaves holes; only after a successful set_view. */
void iot__trace_view(struct iot_file *f, MPI_Datatype filetype);
/* iot__trace_local_meta records a call that is not collective (delete). */
void iot__trace_local_meta(const char *operation, const char *file, uint64_t start, uint64_t ticks,
                           int result);
/* iot__log_finish gathers every rank's lines to rank 0 and writes the log (collective). */
void iot__log_finish(void);
/* iot__log_reserve reports whether this rank may append another row (state lock held). */
int iot__log_reserve(void);

#endif
