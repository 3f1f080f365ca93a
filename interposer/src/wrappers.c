/*
 * wrappers.c: the MPI entry points (entries.h lists them). Each wrapper calls the real
 * PMPI_ routine (iot__real) and returns its result untouched. The stub reaches the
 * wrappers through iotuner_core_attach; a core preloaded without the stub exports each
 * under its MPI_ and its PMPI_ name (MPICH's Fortran bindings call MPI_, Open MPI's call
 * PMPI_). All logic lives in decide.c and trace.c.
 *
 * RATIONALE: a thread-local depth counter makes every call that the MPI
 * library makes to itself while inside a wrapper a plain pass-through, so
 * nothing is decided or counted twice and no call loops.
 */
#include "iot.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void iot__start(void);
void iot__stop(void);

static IOT_TLS int depth;

/* The state of one data-access call between its begin and end. */
struct call {
    struct iot_file *f;
    int op;
    uint64_t start; /* iot__ticks() when traced, else 0 */
    int tsc;        /* iot__state.tsc, read before the call */
    MPI_Count count;
    MPI_Datatype datatype;
    uint64_t bytes;        /* this rank's bytes, once known (UNKNOWN_BYTES before) */
    int64_t offset_before; /* byte offset the call starts at, -1 when not known... */
    int looked_up;         /* ...though looked up (iot__trace_offset counts the attempt) */
};

#define UNKNOWN_BYTES UINT64_MAX

/*
 * RATIONALE: nothing here asks MPI about the arguments before MPI has checked them
 * (an invalid datatype would abort inside the query instead of returning MPI_ERR_TYPE),
 * except the byte count a decision or the choice of calls to time needs, which
 * iot__type_size asks for quietly.
 */
/* Returns 1 when the call goes untimed (iot__trace_untimed): then call_end_untimed ends it. */
static inline __attribute__((always_inline)) int call_begin(struct call *c, MPI_File fh, int op,
                                                            MPI_Count count, MPI_Datatype datatype,
                                                            MPI_Offset offset) {
    c->f = NULL;
    /* The wrapper (IOT_DATA) came here only when iotuner is active and the call is traced
     * or may carry a decision. */
    if (depth > 0)
        return 0;
    struct iot_file *f = iot__file_find(fh);
    if (!f)
        return 0;
    depth++;
    c->f = f;
    c->op = op;
    c->count = count;
    c->datatype = datatype;
    c->bytes = UNKNOWN_BYTES;
    c->offset_before = -1;
    c->looked_up = 0;
    c->start = 0;
    /* op is a constant here: the test folds away for calls that never decide, and a file
     * not tuned costs no call into decide.c. */
    if (IOT_OP_BLOCKING(op) && f->tuned && iot__access_decision_due(f)) {
        c->bytes = iot__type_size(count, datatype);
        iot__decide_access(f, op, c->bytes);
    }
    if (!f->traced)
        return 0;
    /* The call's bytes once, for the row it goes to (offsets, sampling) and its count. */
    if (c->bytes == UNKNOWN_BYTES)
        c->bytes = iot__type_size(count, datatype);
    if (count > 0 && iot__trace_offset_needed(f, op, c->bytes))
        c->offset_before = iot__trace_offset_before(f, op, offset), c->looked_up = 1;
    else if (iot__trace_untimed(f, op, c->bytes))
        return 1;
    c->tsc = iot__state.tsc;
    c->start = iot__ticks_with(c->tsc);
    return 0;
}

static inline __attribute__((always_inline)) int call_end(struct call *c, int result) {
    if (!c->f)
        return result;
    /* The clock first, from what the stack holds: the file's state and iotuner's globals
     * may have left the cache during the call, and their reload is not the call's time.
     * (A traced call's start is never 0: the counter and the clock count from boot.) */
    uint64_t end = c->start ? iot__ticks_with(c->tsc) : 0;
    if (c->f->traced) {
        uint64_t ticks = end - c->start;
        uint64_t bytes = result != MPI_SUCCESS       ? 0
                         : c->bytes != UNKNOWN_BYTES ? c->bytes
                                                     : iot__type_size(c->count, c->datatype);
        if (bytes > 0)
            iot__trace_memory_check(c->f, c->datatype);
        if (IOT_OP_SPLIT(c->op) && result == MPI_SUCCESS) {
            /* Counted at the matching end call, from begin to end. */
            c->f->split_op = c->op;
            c->f->split_start = c->start;
            c->f->split_bytes = bytes;
        } else {
            iot__trace_data(c->f, c->op, c->start, ticks, bytes, result);
        }
        if (bytes > 0 && c->looked_up)
            iot__trace_offset(c->f, c->op, c->offset_before, bytes);
    }
    depth--;
    return result;
}

/*
 * The end of a call call_begin left untimed. RATIONALE: a path of its own from the call
 * on, so that a timed call's clock is read after no branch on whether it is timed: the
 * calls to time are drawn at random, so the predictor misses that branch on most timed
 * calls, and the miss would land inside their time.
 */
static inline __attribute__((always_inline)) int call_end_untimed(struct call *c, int result) {
    if (result == MPI_SUCCESS) {
        if (c->bytes > 0) /* a valid datatype: only those are decoded */
            iot__trace_memory_check(c->f, c->datatype);
        iot__trace_untimed_done(c->f, c->op, c->bytes);
        depth--;
        return result;
    }
    c->tsc = iot__state.tsc;
    c->start = iot__ticks_with(c->tsc); /* failed: counted like a timed call, 0 s long */
    return call_end(c, result);
}

static int split_end(MPI_File fh, int result_of(MPI_File, void *, MPI_Status *), void *buf,
                     MPI_Status *status) {
    struct iot_file *f = iot__state.active && depth == 0 ? iot__file_find(fh) : NULL;
    if (!f)
        return result_of(fh, buf, status);
    depth++;
    int result = result_of(fh, buf, status);
    if (f->split_op >= 0) {
        iot__trace_call(f, f->split_op, f->split_start, iot__ticks() - f->split_start,
                        f->split_bytes, result);
        f->split_op = -1;
    }
    depth--;
    return result;
}

#define IOT_BOTH_NAMES(name, params, args)                                                         \
    IOT_EXPORT int MPI_##name params {                                                             \
        return wrap_##name args;                                                                   \
    }                                                                                              \
    IOT_EXPORT int PMPI_##name params {                                                            \
        return wrap_##name args;                                                                   \
    }

/*
 * A data-access routine (entries.h): params and args of the routine, its count argument
 * and explicit offset (-1 for file-pointer routines). Off, and tuning alone in a call
 * that carries no decision, go straight to MPI (op is a constant here); the work of a
 * followed call sits in its own function, so that path saves no registers.
 */
#define IOT_DATA(E, name, op, params, args, offset)                                                \
    static __attribute__((noinline)) int followed_##name params {                                  \
        struct call c;                                                                             \
        if (call_begin(&c, fh, op, (MPI_Count)count, datatype, offset))                            \
            return call_end_untimed(&c, iot__real.name args);                                      \
        return call_end(&c, iot__real.name args);                                                  \
    }                                                                                              \
    static int wrap_##name params {                                                                \
        if (iot__state.active && (iot__state.trace || IOT_OP_BLOCKING(op)))                        \
            return followed_##name args;                                                           \
        return iot__real.name args;                                                                \
    }
IOT_DATA_ENTRIES(IOT_DATA, -)

/* The end of a split collective. */
#define IOT_END(name, params, args)                                                                \
    static int real_##name(MPI_File fh, void *buf, MPI_Status *status) {                           \
        return iot__real.name(fh, buf, status);                                                    \
    }                                                                                              \
    static int wrap_##name params {                                                                \
        return split_end(fh, real_##name, (void *)buf, status);                                    \
    }
IOT_END_ENTRIES(IOT_END)

/* ------------------------------------------------------ open and close */

/*
 * RATIONALE: MPI_File_open's handle is an output only, and MPI leaves the state after an
 * erroneous call unspecified (MPI 4.1, 14.7: an open's error goes to MPI_FILE_NULL's
 * handler, which may return). A failed open may leave the handle as the program had it:
 * MPICH does where ROMIO cannot tell the file system (a file in a missing directory), and
 * returns MPI_SUCCESS when the program's handler returns, so the program's uninitialised
 * variable looked like an open file and a query on it crashed (issue 32).
 * Each real open therefore writes into a handle of ours that starts as a value no open
 * can produce (the address of our own object); only what MPI wrote reaches the program's
 * handle, and only a handle MPI wrote with MPI_SUCCESS, not MPI_FILE_NULL, is a file.
 */
static max_align_t unwritten_mark;
#define UNWRITTEN ((MPI_File)(void *)&unwritten_mark)

/* One real open into *out (UNWRITTEN when MPI wrote nothing there); 1 when it produced a
 * file. A NULL fh goes to MPI as it came: MPI answers it. */
static int real_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh,
                     MPI_File *out, int *result) {
    *out = UNWRITTEN;
    *result = iot__real.File_open(comm, filename, amode, info, fh ? out : NULL);
    return *result == MPI_SUCCESS && *out != UNWRITTEN && *out != MPI_FILE_NULL;
}

/* Gives the program's handle what MPI wrote in *out, if anything. */
static void hand_over(MPI_File *fh, MPI_File out) {
    if (fh && out != UNWRITTEN)
        *fh = out;
}

/*
 * The real open of a file that inherits MPI_FILE_NULL's error handler: where the file
 * opened (*opened set), it holds its reference to that handler
 * (iot__file_hold_errhandler), which its close will release.
 */
static int open_inheriting(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                           MPI_File *fh, int *opened) {
    MPI_File out;
    int result;
    *opened = real_open(comm, filename, amode, info, fh, &out, &result);
    if (*opened)
        iot__file_hold_errhandler(out);
    hand_over(fh, out);
    return result;
}

/*
 * Opens with the table's hints. MPI_FILE_NULL's error handler (which the program may
 * have set, and which a new file inherits) returns errors during that attempt, so a
 * failure caused by the table's hints never reaches the program: when every rank fails,
 * all retry the way the program asked, and the program's handler sees only that outcome
 * (and the program's handle only what that retry wrote).
 */
static int open_tuned(MPI_Comm comm, MPI_Comm agree, const char *filename, int amode, MPI_Info info,
                      MPI_Info use, MPI_File *fh, int *opened, int *untuned) {
    MPI_Errhandler program = iot__quiet_begin(MPI_FILE_NULL);
    if (!iot__agree(agree, program != MPI_ERRHANDLER_NULL)) {
        iot__quiet_end(MPI_FILE_NULL, program);
        *untuned = 1;
        return open_inheriting(comm, filename, amode, info, fh, opened);
    }
    MPI_File out;
    int result;
    *opened = real_open(comm, filename, amode, use, fh, &out, &result);
    int mine[2] = {*opened, !*opened}, all[2] = {0, 0};
    PMPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, agree);
    /* Where the file opened, it gets the handler it would have inherited (set, so the file
     * holds a reference of its own). */
    if (*opened)
        PMPI_File_set_errhandler(out, program);
    iot__quiet_end(MPI_FILE_NULL, program);
    if (all[1]) {
        /* Failed everywhere: the table's hints may be the cause. */
        *untuned = 1;
        return open_inheriting(comm, filename, amode, info, fh, opened);
    }
    hand_over(fh, out);
    if (!all[0]) {
        /* Some ranks opened, some did not: a retry would need the open ranks to close,
         * a collective the others cannot join. Leave it as MPI left it, and let the
         * program's handler see the failure where there was one. */
        if (result != MPI_SUCCESS)
            PMPI_File_call_errhandler(MPI_FILE_NULL, result);
        *untuned = -1;
    }
    return result;
}

/*
 * Gives the table's open hints again with MPI_File_set_info, for an MPI that ignores
 * hints at open (Open MPI 5's ROMIO: component.c), all but the buffer sizes that would
 * raise what the open allocated (held): Open MPI 5.0.11's ROMIO sized its collective
 * buffer at open from its default (16 MiB), and cb_buffer_size raised to 32 MiB by
 * set_info crashed a 24 MiB collective write without iotuner (formats/hint_safety.md).
 * Collective like the open it follows, which every rank of the file completed; an error
 * is kept from the program (its handler is not called) and leaves the file as opened.
 * 0 when MPI took them (given: the keys passed).
 */
static int reapply_table_hints(MPI_Comm agree, MPI_File fh, const struct iot_kv *table,
                               struct iot_kv *given, struct iot_kv *held) {
    MPI_Info again = MPI_INFO_NULL;
    int ok =
        iot__reapplicable(fh, table, given, held) == 0 && PMPI_Info_create(&again) == MPI_SUCCESS;
    for (int i = 0; ok && i < given->n; i++)
        ok = PMPI_Info_set(again, given->keys[i], given->vals[i]) == MPI_SUCCESS;
    MPI_Errhandler program = iot__quiet_begin(fh);
    int quiet = program != MPI_ERRHANDLER_NULL;
    /* Every rank calls set_info or none does: it is collective. */
    ok = iot__agree(agree, ok && quiet);
    if (ok)
        ok = PMPI_File_set_info(fh, again) == MPI_SUCCESS;
    if (quiet)
        iot__quiet_end(fh, program);
    if (again != MPI_INFO_NULL)
        PMPI_Info_free(&again);
    return ok ? 0 : -1;
}

static int wrap_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                          MPI_File *fh) {
    int rank = 0, size = 0;
    if (!iot__state.active)
        return iot__real.File_open(comm, filename, amode, info, fh);
    int opened = 0;
    if (depth > 0 || !iot__comm_usable(comm, &rank, &size))
        return open_inheriting(comm, filename, amode, info, fh, &opened);
    depth++;
    struct iot_kv table = {0}, requested = {0}, given = {0}, held = {0};
    char untuned_why[256];
    MPI_Comm agree = iot__agreement_comm(comm, size);
    MPI_Info use = iot__decide_open(agree, rank, size, filename, info, &table, untuned_why,
                                    sizeof untuned_why);
    /* Only for the hints record, which says that striping applies to files created here:
     * asked only where striping is (a stat costs rank 0 a few us of a short phase). */
    struct stat st;
    int existed =
        rank == 0 && iot__state.trace && iot__info_names_striping(use) && stat(filename, &st) == 0;
    uint64_t start = iot__ticks();
    int result, untuned = 0;
    if (use == info)
        result = open_inheriting(comm, filename, amode, info, fh, &opened);
    else
        result = open_tuned(comm, agree, filename, amode, info, use, fh, &opened, &untuned);
    uint64_t ticks = iot__ticks() - start;
    opened = iot__agree(agree, opened);
    if (untuned > 0 && opened)
        iot__warn(rank == 0, "MPI_File_open of %s failed with the table's hints; opened untuned",
                  filename);
    if (untuned < 0)
        iot__warn(rank == 0,
                  "MPI_File_open of %s with the table's hints failed on some ranks only; "
                  "iotuner does not follow it",
                  filename);
    if (untuned)
        iot__kv_clear(&table);
    int reapplied = opened && !untuned && table.n > 0 && iot__state.reapply_at_open &&
                    reapply_table_hints(agree, *fh, &table, &given, &held) == 0;
    if (iot__kv_from_info(&requested, untuned ? info : use) != 0)
        iot__kv_clear(&requested); /* only the hints record shows it */
    iot__info_release(use, info);
    if (!opened || untuned < 0) {
        if (rank == 0)
            iot__trace_local_meta("MPI_File_open", filename, start, ticks, result);
    } else {
        struct iot_file *f = iot__file_open_state(comm, agree, rank, filename, *fh, amode);
        if (f) {
            if (untuned_why[0]) { /* agreed by every rank in iot__decide_open */
                f->tuned = 0;
                f->untuned = iot__strdup(untuned_why); /* only the trace shows it */
            }
            iot__kv_from_info(&f->app, info);
            iot__record_hints(f, "open", &requested, &table, NULL, existed);
            if (reapplied)
                iot__record_hints(f, "set_info", &given, &table, &held, existed);
            iot__trace_call(f, IOT_OP_OPEN, start, ticks, 0, result);
        }
    }
    iot__kv_clear(&table);
    iot__kv_clear(&requested);
    iot__kv_clear(&given);
    iot__kv_clear(&held);
    depth--;
    return result;
}

static int wrap_File_close(MPI_File *fh) {
    struct iot_file *f = iot__state.active && depth == 0 && fh ? iot__file_find(*fh) : NULL;
    if (!f)
        return iot__real.File_close(fh);
    depth++;
    uint64_t start = iot__ticks();
    int result = iot__real.File_close(fh);
    iot__file_close_state(f, start, iot__ticks() - start, result);
    depth--;
    return result;
}

static int wrap_File_delete(const char *filename, MPI_Info info) {
    if (!iot__state.active || depth > 0)
        return iot__real.File_delete(filename, info);
    depth++;
    uint64_t start = iot__ticks();
    int result = iot__real.File_delete(filename, info);
    iot__trace_local_meta("MPI_File_delete", filename, start, iot__ticks() - start, result);
    depth--;
    return result;
}

/* ------------------------------------------- other collective routines */

static int wrap_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                              MPI_Datatype filetype, const char *datarep, MPI_Info info) {
    struct iot_file *f = iot__state.active && depth == 0 ? iot__file_find(fh) : NULL;
    if (!f)
        return iot__real.File_set_view(fh, disp, etype, filetype, datarep, info);
    depth++;
    struct iot_pending pending;
    MPI_Info use = iot__decide_view(f, info, filetype, &pending);
    uint64_t start = iot__ticks();
    int result = iot__real.File_set_view(fh, disp, etype, filetype, datarep, use);
    if (result == MPI_SUCCESS)
        iot__trace_view(f, filetype);
    iot__trace_call(f, IOT_OP_SET_VIEW, start, iot__ticks() - start, 0, result);
    iot__pending_finish(f, "set_view", &pending, result);
    iot__info_release(use, info);
    depth--;
    return result;
}

static int wrap_File_set_info(MPI_File fh, MPI_Info info) {
    struct iot_file *f = iot__state.active && depth == 0 ? iot__file_find(fh) : NULL;
    if (!f)
        return iot__real.File_set_info(fh, info);
    depth++;
    struct iot_pending pending;
    MPI_Info use = iot__merge_app_info(f, info, &pending);
    uint64_t start = iot__ticks();
    int result = iot__real.File_set_info(fh, use);
    iot__trace_call(f, IOT_OP_SET_INFO, start, iot__ticks() - start, 0, result);
    iot__pending_finish(f, "set_info", &pending, result);
    iot__info_release(use, info);
    depth--;
    return result;
}

/* A collective routine that only needs timing. */
#define IOT_TIMED(name, op, params, args)                                                          \
    static int wrap_##name params {                                                                \
        struct iot_file *f = iot__state.active && depth == 0 ? iot__file_find(fh) : NULL;          \
        if (!f)                                                                                    \
            return iot__real.name args;                                                            \
        depth++;                                                                                   \
        uint64_t start = iot__ticks();                                                             \
        int result = iot__real.name args;                                                          \
        iot__trace_call(f, op, start, iot__ticks() - start, 0, result);                            \
        depth--;                                                                                   \
        return result;                                                                             \
    }

IOT_TIMED(File_set_size, IOT_OP_SET_SIZE, (MPI_File fh, MPI_Offset size), (fh, size))
IOT_TIMED(File_preallocate, IOT_OP_PREALLOCATE, (MPI_File fh, MPI_Offset size), (fh, size))
IOT_TIMED(File_sync, IOT_OP_SYNC, (MPI_File fh), (fh))

/* ------------------------------------------------------------ datatypes */

static int wrap_Type_free(MPI_Datatype *datatype) {
    iot__types_forget(); /* before the handle can be reused by a new datatype */
    return iot__real.Type_free(datatype);
}

/* ------------------------------------------------------ init, finalize */

static int wrap_Init(int *argc, char ***argv) {
    int result = iot__real.Init(argc, argv);
    if (result == MPI_SUCCESS)
        iot__start();
    return result;
}

static int wrap_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int result = iot__real.Init_thread(argc, argv, required, provided);
    if (result == MPI_SUCCESS)
        iot__start();
    return result;
}

static int wrap_Finalize(void) {
    iot__stop();
    return iot__real.Finalize();
}

/* ------------------------------------------------------------- exported */

/*
 * Every wrapped routine under both names, for a core preloaded without the stub.
 * RATIONALE: the MPI_ and PMPI_ names call one static function each: a PMPI_ name that
 * called the MPI_ name would go through the PLT to a tool preloaded before us (Darshan),
 * whose MPI_Init calls our PMPI_Init again, without end (third_party/darshan/README.md).
 */
IOT_ENTRIES(IOT_BOTH_NAMES)

IOT_EXPORT int iotuner_core_attach(int version, size_t size, const struct iot_entries *real,
                                   struct iot_entries *wrappers);
IOT_EXPORT int iotuner_core_attach(int version, size_t size, const struct iot_entries *real,
                                   struct iot_entries *wrappers) {
    if (version != IOT_CORE_VERSION || size != sizeof *wrappers)
        return -1;
#define IOT_ATTACH(name, params, args)                                                             \
    if (real->name)                                                                                \
        iot__real.name = real->name;                                                               \
    wrappers->name = wrap_##name;
    IOT_ENTRIES(IOT_ATTACH)
#undef IOT_ATTACH
    return 0;
}
