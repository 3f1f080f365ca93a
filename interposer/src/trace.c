/*
 * trace.c: what each rank records, how the records of a file are reduced at
 * close, and how the job's log reaches the disk at MPI_Finalize.
 *
 * RATIONALE: no communication ever happens inside an independent call.
 * Each rank keeps its own records; they are combined at MPI_File_close (a
 * collective on the file's group) and gathered at MPI_Finalize. Collective
 * calls happen in the same order on every rank, so the i-th collective
 * record of every rank describes the same call and can be reduced
 * element-wise. Independent calls have no such pairing and are summed per
 * routine and size group. Both structures are bounded, so memory does not
 * grow with the number of operations.
 */
#include "iot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { NCELLS = IOT_NOPS * IOT_NGROUPS };

/* ------------------------------------------------------------ open/close */

static void file_free(struct iot_file *f);

/*
 * The file's own communicator for iotuner's reductions and agreements: the private
 * duplicate of MPI_COMM_WORLD (core.c) when the file's group is the world's and no other
 * file holds it, else a new duplicate of comm. Collective over comm, like the open.
 * RATIONALE: a new communicator costs MPICH up to 0.8 ms in its first collectives, 2 % of
 * a 40 ms I/O phase (bench/trace_cost.py). The world's goes to one file at a time: two
 * files' closes may come in different orders on different ranks, and their reductions
 * must never meet on one communicator. Whether it is free can differ between ranks for a
 * moment (a close not yet made here), so the ranks agree; never under
 * MPI_THREAD_MULTIPLE, where two threads may open at once. The log's gather at
 * MPI_Finalize comes after every close that reduces. *borrowed says which it is; 0, or -1
 * when no duplicate could be made.
 */
static int file_comm(MPI_Comm comm, MPI_Comm agree, MPI_Comm *out, int *borrowed) {
    struct iot_state *s = &iot__state;
    int can = agree == s->world && !s->world_lent;
    *borrowed = iot__agree(agree, can);
    if (*borrowed) {
        s->world_lent = 1;
        *out = s->world;
        return 0;
    }
    return PMPI_Comm_dup(comm, out) == MPI_SUCCESS ? 0 : -1;
}

/* Gives back what file_comm gave: the world's duplicate, or the file's own. */
static void file_comm_release(MPI_Comm *comm, int borrowed) {
    if (borrowed)
        iot__state.world_lent = 0;
    else if (*comm != MPI_COMM_NULL)
        PMPI_Comm_free(comm);
    *comm = MPI_COMM_NULL;
}

MPI_Comm iot__agreement_comm(MPI_Comm comm, int size) {
    struct iot_state *s = &iot__state;
    int same = comm == MPI_COMM_WORLD ? MPI_IDENT : MPI_UNEQUAL;
    if (s->world != MPI_COMM_NULL && !s->multiple && size == s->world_size &&
        (same == MPI_IDENT || (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &same) == MPI_SUCCESS &&
                               (same == MPI_IDENT || same == MPI_CONGRUENT))))
        return s->world;
    return comm;
}

struct iot_file *iot__file_open_state(MPI_Comm comm, MPI_Comm agree, int rank, const char *filename,
                                      MPI_File fh, int amode) {
    struct iot_state *s = &iot__state;
    struct iot_file *f = iot__calloc(1, sizeof *f);
    if (f)
        f->open_info = MPI_INFO_NULL; /* before any way out: file_free reads it */
    MPI_Comm dup = MPI_COMM_NULL;
    int borrowed = 0;
    int dup_ok = file_comm(comm, agree, &dup, &borrowed) == 0;
    int ok = f && dup_ok;
    if (ok) {
        f->fh = fh;
        f->comm = dup;
        f->borrowed = borrowed;
        f->amode = amode;
        PMPI_Comm_rank(dup, &f->rank);
        PMPI_Comm_size(dup, &f->size);
        f->name = iot__strdup(filename);
        f->traced = s->trace;
        f->tuned = s->tune;
        f->hint_seq = -1;
        f->first_offset = -1;
        f->second_offset = -1;
        f->view_block = -1;
        f->view_extent = -1;
        f->contiguous = 1;
        f->view_contiguous = 1;
        f->view_layout = iot__layout_bytes();
        f->mem_type = MPI_DATATYPE_NULL;
        f->shape = -1;
        f->split_op = -1;
        f->opened_at = iot__now();
        ok = f->name && (!f->tuned || iot__note_open_values(f) == 0);
    }
    /* A rank that cannot follow the file would skip the reductions the others make at
     * its decisions and its close: all follow it, or none does. */
    if (!iot__agree(agree, ok)) {
        iot__warn(rank == 0,
                  "a rank could not follow %s (no memory or no communicator); it runs untuned "
                  "and untraced",
                  filename);
        if (dup_ok)
            file_comm_release(&dup, borrowed);
        if (f)
            file_free(f);
        return NULL;
    }
    pthread_mutex_lock(&s->lock);
    f->next = s->files;
    s->files = f;
    pthread_mutex_unlock(&s->lock);
    return f;
}

static void file_unlink(struct iot_file *f) {
    struct iot_state *s = &iot__state;
    pthread_mutex_lock(&s->lock);
    struct iot_file **p = &s->files;
    while (*p && *p != f)
        p = &(*p)->next;
    if (*p)
        *p = f->next;
    iot__files_changed();
    pthread_mutex_unlock(&s->lock);
}

static void file_free(struct iot_file *f) {
    if (f->open_info != MPI_INFO_NULL)
        PMPI_Info_free(&f->open_info);
    iot__kv_clear(&f->app);
    iot__kv_clear(&f->applied);
    iot__kv_clear(&f->baseline);
    iot__kv_clear(&f->at_open);
    iot__kv_clear(&f->view_set);
    free(f->coll);
    for (int op = 0; op < IOT_NOPS; op++)
        free(f->agg[op]);
    free(f->name);
    free(f->untuned);
    free(f);
}

/* --------------------------------------------------------------- records */

/* Seconds since MPI_Init of an iot__ticks() reading, with rate seconds per tick. */
static double ticks_since_start(uint64_t ticks, double rate) {
    return ticks > iot__state.tick0 ? (double)(ticks - iot__state.tick0) * rate : 0.0;
}

static int error_class(int result) {
    int cls = result;
    if (result != MPI_SUCCESS && PMPI_Error_class(result, &cls) != MPI_SUCCESS)
        cls = result;
    return cls;
}

/* The summed calls of cell c (routine c / IOT_NGROUPS), or NULL where the routine has none. */
static const struct iot_agg *agg_cell(const struct iot_file *f, int c) {
    const struct iot_agg *row = f->agg[c / IOT_NGROUPS];
    return row && row[c % IOT_NGROUPS].calls > 0 ? &row[c % IOT_NGROUPS] : NULL;
}

uint32_t iot__sample_seed = 1;

void iot__agg_sampling(struct iot_agg *a) {
    /* The threshold in ticks, once: the rate over the run so far is close enough. */
    static double below_ticks;
    if (iot__state.multiple || iot__state.sample_below <= 0)
        return;
    if (below_ticks <= 0) {
        double rate = iot__tick_seconds_rough();
        if (rate <= 0)
            return;
        below_ticks = iot__state.sample_below / rate;
    }
    if ((double)a->ticks >= below_ticks * (double)a->timed)
        return;
    a->exact_calls = a->calls;
    a->exact_ticks = a->ticks;
    a->countdown = 1; /* the next call is timed */
    /* The program's own work between two calls: what the calls' span holds besides them
     * (every call timed so far, one after another on this cell). */
    double span = (double)(a->last_end - a->first_start) - (double)a->ticks;
    a->work = a->calls > 1 && span > 0 ? span / (double)(a->calls - 1) : 0;
}

static void agg_add(struct iot_file *f, int op, uint64_t start, uint64_t ticks, uint64_t bytes) {
    if (!f->agg[op] && !(f->agg[op] = iot__calloc(IOT_NGROUPS, sizeof *f->agg[op]))) {
        f->broken = 1; /* the call goes uncounted; the trace says its figures are incomplete */
        return;
    }
    if (f->group == 0 || bytes != f->group_bytes) {
        f->group_bytes = bytes;
        f->group = iot__size_group(bytes);
    }
    iot__agg_count(&f->agg[op][f->group - 1], start, bytes, ticks, f->hint_seq, f->shape);
}

/* Keeps one collective call's record (below the cap). Apart from agg_add, so that the
 * path of summed calls stays short. */
static __attribute__((noinline)) void coll_add(struct iot_file *f, int op, uint64_t start,
                                               uint64_t ticks, uint64_t bytes, int result) {
    struct iot_state *s = &iot__state;
    if (f->ncoll == f->capcoll) {
        size_t cap = f->capcoll ? f->capcoll * 2 : 64;
        if (cap > s->max_records)
            cap = s->max_records;
        struct iot_coll_rec *grown = iot__realloc(f->coll, cap * sizeof *grown);
        if (!grown) {
            f->broken = 1;
            return;
        }
        f->coll = grown;
        f->capcoll = cap;
    }
    f->coll[f->ncoll++] =
        (struct iot_coll_rec){start, ticks, bytes, op, f->hint_seq, error_class(result), f->shape};
}

void iot__trace_call(struct iot_file *f, int op, uint64_t start, uint64_t ticks, uint64_t bytes,
                     int result) {
    struct iot_state *s = &iot__state;
    if (!f->traced)
        return;
    const struct iot_op_info *info = &iot__ops[op];
    iot__calls_lock();
    if (info->kind == 'r')
        f->bytes_read += bytes;
    else if (info->kind == 'w')
        f->bytes_written += bytes;
    if (info->kind != 'm')
        f->data_calls++;
    if (info->collective && f->ncoll < s->max_records)
        coll_add(f, op, start, ticks, bytes, result);
    else
        agg_add(f, op, start, ticks, bytes);
    iot__calls_unlock();
}

int64_t iot__trace_offset_before(struct iot_file *f, int op, MPI_Offset offset) {
    int shared = op == IOT_OP_READ_SHARED || op == IOT_OP_WRITE_SHARED ||
                 op == IOT_OP_IREAD_SHARED || op == IOT_OP_IWRITE_SHARED ||
                 op == IOT_OP_READ_ORDERED || op == IOT_OP_WRITE_ORDERED ||
                 op == IOT_OP_READ_ORDERED_SPLIT || op == IOT_OP_WRITE_ORDERED_SPLIT;
    /* The individual pointer does not exist on a file opened MPI_MODE_SEQUENTIAL. */
    if (offset < 0 && !shared && (f->amode & MPI_MODE_SEQUENTIAL))
        return -1;
    MPI_Errhandler saved = iot__quiet_begin(f->fh);
    if (saved == MPI_ERRHANDLER_NULL)
        return -1;
    MPI_Offset position = offset, byte_offset = -1;
    int rc = MPI_SUCCESS;
    if (offset < 0)
        /* Ordered access starts at the shared pointer, but where this rank lands
         * depends on the ranks before it; the shared pointer is the group's start. */
        rc = shared ? PMPI_File_get_position_shared(f->fh, &position)
                    : PMPI_File_get_position(f->fh, &position);
    if (rc == MPI_SUCCESS &&
        PMPI_File_get_byte_offset(f->fh, position, &byte_offset) != MPI_SUCCESS)
        byte_offset = -1;
    iot__quiet_end(f->fh, saved);
    return rc == MPI_SUCCESS ? byte_offset : -1;
}

void iot__trace_offset(struct iot_file *f, int op, int64_t offset, uint64_t bytes) {
    iot__calls_lock();
    if (offset < 0) {
        /* Not to be known (MPI_MODE_SEQUENTIAL): later calls do not ask again. */
        f->first_offset = f->first_offset < 0 ? -2 : f->first_offset;
        f->second_offset = -2;
    } else if (f->first_offset < 0) {
        f->first_offset = offset;
        f->first_bytes = bytes;
    } else if (f->second_offset < 0) {
        f->second_offset = offset;
    }
    /* The summed row the call went to, for the pattern of the calls that carry the bytes. */
    struct iot_agg *a = f->agg[op] ? &f->agg[op][iot__size_group(bytes) - 1] : NULL;
    if (a && a->calls > 0 && a->noffsets < 2) {
        if (a->noffsets == 0)
            a->first_bytes = bytes;
        a->offset[a->noffsets++] = offset; /* -1: not known, which pattern_offsets skips */
    }
    iot__calls_unlock();
}

int iot__trace_offset_wanted(const struct iot_file *f, int op, uint64_t bytes) {
    if (IOT_OP_COLLECTIVE(op) && f->ncoll < iot__state.max_records)
        return 0; /* a row of its own: the file's first two offsets serve */
    const struct iot_agg *row = f->agg[op];
    return !row || bytes == 0 || row[iot__size_group(bytes) - 1].noffsets < 2;
}

/* The index of the file's pair of view and memory layouts in force, added when new. */
static void shape_select(struct iot_file *f) {
    struct iot_shape now = {f->view_layout, f->mem_layout};
    for (int i = 0; i < f->nshapes; i++)
        if (memcmp(&f->shapes[i], &now, sizeof now) == 0) {
            f->shape = i;
            return;
        }
    if (f->nshapes == IOT_SHAPES) {
        f->shape = IOT_SHAPES; /* unknown: more pairs than kept */
        return;
    }
    f->shapes[f->nshapes] = now;
    f->shape = f->nshapes++;
}

void iot__trace_memory(struct iot_file *f, MPI_Datatype datatype) {
    unsigned generation = __atomic_load_n(&iot__type_generation, __ATOMIC_ACQUIRE);
    iot__calls_lock();
    struct iot_mem_known *known = f->mem_known, found = {datatype, generation, {0}};
    int at = 0;
    while (at < IOT_MEM_KNOWN - 1 &&
           !(known[at].type == datatype && known[at].generation == generation))
        at++;
    if (known[at].type == datatype && known[at].generation == generation)
        found = known[at];
    else if (f->mem_decodes >= IOT_MEM_DECODES_MAX || (f->mem_decodes++, 0) ||
             iot__type_layout(datatype, &found.layout) != 0)
        found.layout = (struct iot_layout){0}; /* not known */
    /* The latest first: a program that alternates two datatypes finds both here. */
    memmove(&known[1], &known[0], (size_t)at * sizeof *known);
    known[0] = found;
    f->mem_type = datatype;
    f->mem_generation = generation;
    f->mem_layout = found.layout;
    shape_select(f);
    iot__calls_unlock();
}

void iot__trace_view(struct iot_file *f, MPI_Datatype filetype) {
    struct iot_type_shape shape;
    if (iot__type_layout(filetype, &f->view_layout) != 0)
        f->view_layout = (struct iot_layout){0}; /* not known */
    if (f->shape >= 0)
        shape_select(f);
    if (iot__type_shape(filetype, &shape) != 0)
        return;
    int holes = iot__type_shape_holes(&shape);
    f->view_contiguous = !holes;
    if (!holes)
        return;
    f->contiguous = 0;
    /* A filetype whose data is one piece (a block, then a hole: a resized block) says the
     * layout's block and period; one with several pieces (a vector, a subarray) only that
     * it has holes. */
    int one_piece = shape.size > 0 && shape.size == shape.true_extent;
    f->view_block = one_piece ? (int64_t)shape.size : 0;
    f->view_extent = one_piece ? (int64_t)shape.extent : 0;
}

int iot__log_reserve(void) {
    struct iot_state *s = &iot__state;
    if (s->out.len < s->max_log_bytes && !s->out.failed)
        return 1;
    s->dropped_rows++;
    return 0;
}

void iot__trace_local_meta(const char *operation, const char *file, uint64_t start, uint64_t ticks,
                           int result) {
    struct iot_state *s = &iot__state;
    if (!s->trace)
        return;
    double rate = iot__tick_seconds();
    double at = ticks_since_start(start, rate), seconds = (double)ticks * rate;
    pthread_mutex_lock(&s->lock);
    if (!iot__log_reserve()) {
        pthread_mutex_unlock(&s->lock);
        return;
    }
    iot__buf_printf(&s->out, "{\"record\": \"meta\", \"operation\": \"%s\", \"file\": ", operation);
    iot__buf_json_string(&s->out, file);
    iot__buf_printf(&s->out,
                    ", \"time_stamp\": %.6f, \"duration\": %.9f, \"result\": %d, \"rank\": %d}\n",
                    at, seconds, error_class(result), s->world_rank);
    pthread_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------------- op rows */

#define IOT_TYPE_INT long long
#define IOT_TYPE_REAL double
#define IOT_TYPE_TEXT const char *

/* One row of the op record: its fields come from formats/trace_op_fields.def. */
struct op_row {
#define IOT_OP_FIELD(name, type, presence, description) IOT_TYPE_##type name;
#include "trace_op_fields.def"
#undef IOT_OP_FIELD
};

/* What "%lld" writes, without a pass through printf (RATIONALE: half the fields of an op
 * row are integers, and a close writes up to the record cap of rows). */
static void put_INT(struct iot_buf *b, long long v) {
    char text[24];
    char *end = text + sizeof text, *p = end;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        *--p = '-';
    iot__buf_append(b, p, (size_t)(end - p));
}
/* What "%.9g" writes (iot__buf_g9: without printf for the values a trace holds). */
static void put_REAL(struct iot_buf *b, double v) {
    iot__buf_g9(b, isfinite(v) ? v : 0.0);
}
static void put_TEXT(struct iot_buf *b, const char *v) {
    iot__buf_json_string(b, v ? v : "");
}

static void write_op_row(const struct op_row *row) {
    struct iot_buf *b = &iot__state.out;
    if (!iot__log_reserve())
        return;
    /* The constant text is copied, not formatted: a close writes up to the record cap of
     * these rows on the program's time. */
    static const char start[] = "{\"record\": \"op\"";
    iot__buf_append(b, start, sizeof start - 1);
#define IOT_OP_FIELD(name, type, presence, description)                                            \
    {                                                                                              \
        static const char key[] = ", \"" #name "\": ";                                             \
        iot__buf_append(b, key, sizeof key - 1);                                                   \
        put_##type(b, row->name);                                                                  \
    }
#include "trace_op_fields.def"
#undef IOT_OP_FIELD
    iot__buf_append(b, "}\n", 2);
}

static void write_meta_row(const char *file, int op, double start, double seconds, int result,
                           uint64_t calls) {
    struct iot_buf *b = &iot__state.out;
    if (!iot__log_reserve())
        return;
    iot__buf_printf(b,
                    "{\"record\": \"meta\", \"operation\": \"%s\", \"file\": ", iot__ops[op].name);
    iot__buf_json_string(b, file);
    iot__buf_printf(b, ", \"time_stamp\": %.6f, \"duration\": %.9f, \"result\": %d", start, seconds,
                    result);
    if (calls != 1)
        iot__buf_printf(b, ", \"calls\": %llu", (unsigned long long)calls);
    iot__buf_printf(b, "}\n");
}

static double bandwidth_mib(double bytes, double seconds) {
    return seconds > 0 ? bytes / seconds / (1024.0 * 1024.0) : 0.0;
}

/* ------------------------------------------------------------- reduction */

/*
 * The access shape of a row on this rank (formats/README.md, "Access shape"): what one
 * of its calls, of `bytes` bytes, touched through a layout, in figures summed over the
 * ranks weighted by their calls (SHAPE_SUMS, the weight last) and in minima (SHAPE_MINS).
 */
enum { SHAPE_SUMS = 6, SHAPE_MINS = 2 };

/* The contiguous pieces of `bytes` of data laid out as repeated instances of l. */
static double layout_pieces(const struct iot_layout *l, double bytes) {
    double instances = bytes / (double)l->size;
    double pieces =
        instances * (double)l->pieces - (instances > 1 ? (instances - 1) * l->joins : 0);
    return pieces > 1 ? pieces : 1;
}

static int layout_contiguous(const struct iot_layout *l) {
    return l->pieces == 1 && l->joins;
}

/* A piece of l (piece_typical or piece_min) in a call of `bytes` bytes. */
static double layout_piece(const struct iot_layout *l, int64_t piece, double bytes) {
    if (layout_contiguous(l) || (double)piece > bytes)
        return bytes;
    return (double)piece;
}

static void shape_figures(const struct iot_file *f, int shape, double calls, double bytes,
                          double *sums, double *mins) {
    const struct iot_shape *pair = shape >= 0 && shape < f->nshapes ? &f->shapes[shape] : NULL;
    for (int i = 0; i < SHAPE_SUMS; i++)
        sums[i] = 0;
    mins[0] = mins[1] = HUGE_VAL;
    if (!pair || !pair->view.known || !pair->mem.known || calls <= 0 || bytes <= 0)
        return; /* unknown: left out of the means */
    const struct iot_layout *v = &pair->view, *m = &pair->mem;
    double per_call = bytes / calls;
    sums[0] = calls * layout_pieces(v, per_call);
    sums[1] = calls * layout_piece(v, v->piece_typical, per_call);
    /* The stride between the starts of a call's pieces: the period over its pieces. */
    sums[2] = calls * (layout_contiguous(v) ? 0 : (double)v->extent / (double)v->pieces);
    sums[3] = calls * layout_pieces(m, per_call);
    sums[4] = calls * layout_piece(m, m->piece_typical, per_call);
    sums[5] = calls;
    mins[0] = layout_piece(v, v->piece_min, per_call);
    mins[1] = layout_piece(m, m->piece_min, per_call);
}

/* Fills the shape columns of row from the reduced sums and minima (-1: unknown). */
static void shape_row(struct op_row *row, const double *sums, const double *mins) {
    double weight = sums[5];
    int known = weight > 0;
    row->file_pieces = known ? sums[0] / weight : -1;
    row->file_piece = known ? (long long)(sums[1] / weight + 0.5) : -1;
    row->file_piece_min = known && isfinite(mins[0]) ? (long long)mins[0] : -1;
    row->file_stride = known ? (long long)(sums[2] / weight + 0.5) : -1;
    row->mem_pieces = known ? sums[3] / weight : -1;
    row->mem_piece = known ? (long long)(sums[4] / weight + 0.5) : -1;
    row->mem_piece_min = known && isfinite(mins[1]) ? (long long)mins[1] : -1;
}

/* The last minima of a file's reduction (file_reduce), after its per-call and per-cell ones. */
enum {
    M_FIRST,
    M_FIRST_MAX,
    M_STRIDE_MIN,
    M_STRIDE_MAX,
    M_GAP_MIN,
    M_GAP_MAX,
    M_BLOCK_MIN,
    M_BLOCK_MAX,
    M_EXTENT_MIN,
    M_EXTENT_MAX,
    M_CONTIG,
    M_N
};

/*
 * The two offsets a rank's stride and gap come from: those of the first two calls of the
 * summed row that moved the most of its bytes, else the file's first two accesses.
 * RATIONALE: a program's first calls are often a header's; a header write must not name
 * the pattern of the 40,000 record writes after it.
 */
struct pair_of_offsets {
    int two;
    int64_t first, second;
    uint64_t first_bytes;
};

static struct pair_of_offsets pattern_offsets(const struct iot_file *f) {
    const struct iot_agg *heaviest = NULL;
    for (int c = 0; c < NCELLS; c++) {
        const struct iot_agg *a = agg_cell(f, c);
        if (a && (!heaviest || a->bytes > heaviest->bytes))
            heaviest = a;
    }
    if (heaviest && heaviest->noffsets == 2 && heaviest->offset[0] >= 0 && heaviest->offset[1] >= 0)
        return (struct pair_of_offsets){1, heaviest->offset[0], heaviest->offset[1],
                                        heaviest->first_bytes};
    int two = f->first_offset >= 0 && f->second_offset >= 0;
    return (struct pair_of_offsets){two, f->first_offset, f->second_offset, f->first_bytes};
}

/* What a file's close reduced, kept on the group's rank 0 until MPI_Finalize writes its
 * rows (closed_write). RATIONALE: formatting a row costs about 3,000 instructions, and a
 * close of 4,096 collective calls spent 2 ms on them, 5 % of a 40 ms I/O phase
 * (bench/trace_cost.py); at MPI_Finalize the program's I/O is over. */
struct iot_closed {
    struct iot_closed *next;
    char *name;
    int size; /* ranks of the file's group */
    int hint_seq;
    double opened_at, closed_at;
    uint64_t close_seq;
    struct iot_coll_rec *coll; /* this rank's collective records, in order */
    size_t ncoll, ncells;      /* records and cells reduced */
    int *shape_all;            /* [NCELLS]: cells in use on some rank */
    int *cell_hints;           /* [ncells]: rank 0's hints record of each (-1: none) */
    double *sum, *min, *max;   /* the reductions (file_reduce says what is where) */
    size_t nsum;
    int broken_any, ncoll_differs;
};

/* Writes the op, meta and file records of a reduced file (state lock held). */
static void closed_write(const struct iot_closed *c) {
    size_t ncoll = c->ncoll, ncells = c->ncells, nsum = c->nsum;
    const int *shape_all = c->shape_all;
    const double *sum = c->sum, *min = c->min, *max = c->max;
    const double *offsets = min + ncoll + ncells;
    const double *shape_sums = sum + 2 * ncoll + 4 * ncells, *shape_mins = offsets + M_N;
    int broken_any = c->broken_any, ncoll_differs = c->ncoll_differs;
    for (size_t i = 0; i < ncoll; i++) {
        const struct iot_coll_rec *r = &c->coll[i];
        if (iot__ops[r->op].kind == 'm') {
            write_meta_row(c->name, r->op, min[i], max[i], r->result, 1);
            continue;
        }
        long long per_rank = (long long)(sum[2 * i] / c->size);
        struct op_row row = {
            .group = iot__size_group((uint64_t)per_rank),
            .time_stamp = min[i],
            .operation = iot__ops[r->op].name,
            .bytes = (long long)sum[2 * i],
            .duration = max[i],
            .bandwidth = bandwidth_mib(sum[2 * i], max[i]),
            .file = c->name,
            .pattern = "collective",
            .kind = iot__ops[r->op].kind == 'r' ? "read" : "write",
            .calls = c->size,
            .ranks = (long long)sum[2 * i + 1],
            .bytes_per_rank = per_rank,
            .summary = 0,
            .hint_set = r->hint_set,
        };
        shape_row(&row, shape_sums + SHAPE_SUMS * i, shape_mins + SHAPE_MINS * i);
        write_op_row(&row);
    }
    size_t k = 0;
    for (int cell = 0; cell < NCELLS; cell++) {
        if (!shape_all[cell])
            continue;
        int op = cell / IOT_NGROUPS;
        double calls = sum[2 * ncoll + 4 * k], bytes = sum[2 * ncoll + 4 * k + 1];
        double ranks = sum[2 * ncoll + 4 * k + 2], estimated = sum[2 * ncoll + 4 * k + 3];
        double first = min[ncoll + k], slowest = max[ncoll + k], error = max[ncoll + ncells + k];
        const double *cell_sums = shape_sums + SHAPE_SUMS * (ncoll + k);
        const double *cell_mins = shape_mins + SHAPE_MINS * (ncoll + k);
        k++;
        if (iot__ops[op].kind == 'm') {
            write_meta_row(c->name, op, first, slowest, 0, (uint64_t)calls);
            continue;
        }
        struct op_row row = {
            .group = cell % IOT_NGROUPS + 1,
            .time_stamp = first,
            .operation = iot__ops[op].name,
            .bytes = (long long)bytes,
            .duration = slowest,
            .bandwidth = bandwidth_mib(bytes, slowest),
            .file = c->name,
            .pattern = iot__ops[op].collective ? "collective" : "independent",
            .kind = iot__ops[op].kind == 'r' ? "read" : "write",
            .calls = (long long)calls,
            .ranks = (long long)ranks,
            .bytes_per_rank = calls > 0 ? (long long)(bytes / calls) : 0,
            .summary = estimated > 0 ? 2 : 1,
            .hint_set = c->cell_hints ? c->cell_hints[k - 1] : c->hint_seq,
            .duration_error = estimated > 0 ? error : 0,
        };
        shape_row(&row, cell_sums, cell_mins);
        write_op_row(&row);
    }
    double moved = sum[nsum - 4] + sum[nsum - 3], data_calls = sum[nsum - 2];
    struct iot_buf *b = &iot__state.out;
    if (iot__log_reserve()) {
        iot__buf_printf(b, "{\"record\": \"file\", \"file\": ");
        iot__buf_json_string(b, c->name);
        iot__buf_printf(
            b,
            ", \"nprocs\": %d, \"opened_at\": %.6f, \"closed_at\": %.6f, \"bytes_read\": %.0f, "
            "\"bytes_written\": %.0f, \"pattern\": {\"nodes\": %d, \"ranks_per_node\": %d, "
            "\"ranks_with_io\": %.0f, \"burst_bytes\": %.0f, \"first_offset\": %.0f, "
            "\"first_offset_max\": %.0f",
            c->size, c->opened_at, c->closed_at, sum[nsum - 4], sum[nsum - 3], iot__state.nodes,
            iot__state.ranks_per_node, sum[nsum - 1], data_calls > 0 ? moved / data_calls : 0.0,
            isfinite(offsets[M_FIRST]) ? offsets[M_FIRST] : -1.0,
            isfinite(offsets[M_FIRST_MAX]) ? -offsets[M_FIRST_MAX] : -1.0);
        static const char *const names[] = {[M_STRIDE_MIN] = "stride_min",
                                            [M_STRIDE_MAX] = "stride_max",
                                            [M_GAP_MIN] = "gap_min",
                                            [M_GAP_MAX] = "gap_max"};
        for (int m = M_STRIDE_MIN; m <= M_GAP_MAX; m++) {
            double v = (m == M_STRIDE_MAX || m == M_GAP_MAX) ? -offsets[m] + 0.0 : offsets[m];
            if (isfinite(v))
                iot__buf_printf(b, ", \"%s\": %.0f", names[m], v);
            else
                iot__buf_printf(b, ", \"%s\": null", names[m]);
        }
        /* The view's block and period when every rank with such a view agrees. */
        double block = offsets[M_BLOCK_MIN], extent = offsets[M_EXTENT_MIN];
        int agreed = isfinite(block) && block > 0 && block == -offsets[M_BLOCK_MAX] &&
                     extent == -offsets[M_EXTENT_MAX];
        if (agreed)
            iot__buf_printf(b, ", \"view_block\": %.0f, \"view_extent\": %.0f", block, extent);
        else
            iot__buf_printf(b, ", \"view_block\": null, \"view_extent\": null");
        iot__buf_printf(b, ", \"contiguous\": %s}, \"reduced\": true, \"complete\": %s}\n",
                        offsets[M_CONTIG] > 0 ? "true" : "false",
                        broken_any || ncoll_differs ? "false" : "true");
    }
}

static void closed_free(struct iot_closed *c) {
    free(c->cell_hints);
    free(c->name);
    free(c->coll);
    free(c->shape_all);
    free(c->sum);
    free(c->min);
    free(c->max);
    free(c);
}

/*
 * Reduces the file's records over its group; the group's rank 0 keeps the result for
 * closed_write. Every rank of the group calls it, whatever happened locally, so the
 * reductions always match.
 */
static void file_reduce(struct iot_file *f) {
    /* Step 1: agree on shapes: cells in use anywhere, record counts, failures. A rank
     * without memory for this says so first, and then nobody reduces. */
    int *shape = iot__calloc(NCELLS + 3, sizeof *shape);
    int *shape_all = iot__calloc(NCELLS + 3, sizeof *shape_all);
    int local_broken = f->broken;
    int broken_any = 0;
    double *sum = NULL, *min = NULL, *max = NULL;
    if (!iot__agree(f->comm, shape && shape_all)) {
        iot__warn(f->rank == 0,
                  "out of memory while reducing the trace of %s; its records are lost", f->name);
        goto done;
    }
    for (int c = 0; c < NCELLS; c++)
        shape[c] = agg_cell(f, c) != NULL;
    shape[NCELLS] = local_broken;
    shape[NCELLS + 1] = (int)f->ncoll;
    shape[NCELLS + 2] = -(int)f->ncoll;
    PMPI_Allreduce(shape, shape_all, NCELLS + 3, MPI_INT, MPI_MAX, f->comm);
    broken_any = shape_all[NCELLS];
    size_t ncoll = (size_t)(-shape_all[NCELLS + 2]);
    int ncoll_differs = shape_all[NCELLS + 1] != -shape_all[NCELLS + 2];
    size_t ncells = 0;
    for (int c = 0; c < NCELLS; c++)
        ncells += shape_all[c] != 0;

    /* Step 2: two reductions to rank 0: sums, and minima. Minima of negated values are
     * maxima, so the maxima (after the minima proper) cost no reduction of their own. The
     * last minima proper: the file's offsets and whether no view had holes. A rank without
     * two accesses gives HUGE_VAL, which no minimum keeps. */
    size_t nrows = ncoll + ncells;
    size_t nsum = 2 * ncoll + 4 * ncells + SHAPE_SUMS * nrows + 4;
    /* Maxima: each row's slowest rank's time, then each summed row's largest error. */
    size_t nmin = ncoll + ncells + M_N + SHAPE_MINS * nrows, nmax = ncoll + 2 * ncells;
    /* Every element is written below; rank 0 reduces into them in place. */
    sum = iot__malloc(nsum * sizeof *sum), min = iot__malloc((nmin + nmax) * sizeof *min);
    max = iot__malloc((nmax + 1) * sizeof *max);
    if (!iot__agree(f->comm, sum && min && max)) {
        iot__warn(f->rank == 0,
                  "out of memory while reducing the trace of %s; its records are lost", f->name);
        goto done;
    }
    /* Times leave the ticks of the per-call path here (iot__ticks). */
    double rate = iot__tick_seconds();
    double *shape_sums = sum + 2 * ncoll + 4 * ncells, *shape_mins = min + ncoll + ncells + M_N;
    for (size_t i = 0; i < ncoll; i++) {
        const struct iot_coll_rec *r = &f->coll[i];
        sum[2 * i] = (double)r->bytes;
        sum[2 * i + 1] = r->bytes > 0;
        min[i] = ticks_since_start(r->start, rate);
        max[i] = (double)r->ticks * rate;
        shape_figures(f, r->shape, r->bytes > 0, (double)r->bytes, shape_sums + SHAPE_SUMS * i,
                      shape_mins + SHAPE_MINS * i);
    }
    size_t k = 0;
    for (int c = 0; c < NCELLS; c++) {
        if (!shape_all[c])
            continue;
        const struct iot_agg *a = agg_cell(f, c);
        int used = a != NULL;
        sum[2 * ncoll + 4 * k] = used ? (double)a->calls : 0;
        sum[2 * ncoll + 4 * k + 1] = used ? (double)a->bytes : 0;
        sum[2 * ncoll + 4 * k + 2] = used;
        /* time estimated (in part, where sampling ended at an outlier) */
        sum[2 * ncoll + 4 * k + 3] = used && (a->timed < a->calls || a->folded);
        min[ncoll + k] = used ? ticks_since_start(a->first_start, rate) : HUGE_VAL;
        max[ncoll + k] = used ? iot__agg_ticks(a) * rate : 0;
        max[ncoll + ncells + k] = used ? 1.645 * sqrt(iot__agg_variance(a)) * rate : 0;
        shape_figures(f, used ? a->shape : -1, used ? (double)a->calls : 0,
                      used ? (double)a->bytes : 0, shape_sums + SHAPE_SUMS * (ncoll + k),
                      shape_mins + SHAPE_MINS * (ncoll + k));
        k++;
    }
    sum[nsum - 4] = (double)f->bytes_read;
    sum[nsum - 3] = (double)f->bytes_written;
    sum[nsum - 2] = (double)f->data_calls;
    sum[nsum - 1] = f->data_calls > 0;
    double *offsets = min + ncoll + ncells;
    struct pair_of_offsets pair = pattern_offsets(f);
    int two = pair.two;
    double stride = two ? (double)pair.second - (double)pair.first : 0;
    double gap = stride - (double)pair.first_bytes;
    offsets[M_FIRST] = f->first_offset >= 0 ? (double)f->first_offset : HUGE_VAL;
    offsets[M_FIRST_MAX] = f->first_offset >= 0 ? -(double)f->first_offset : HUGE_VAL;
    offsets[M_STRIDE_MIN] = two ? stride : HUGE_VAL;
    offsets[M_STRIDE_MAX] = two ? -stride : HUGE_VAL;
    offsets[M_GAP_MIN] = two ? gap : HUGE_VAL;
    offsets[M_GAP_MAX] = two ? -gap : HUGE_VAL;
    /* A rank without a view with holes does not count; one whose view's data is in
     * several pieces (0) leaves the block unknown for all. */
    offsets[M_BLOCK_MIN] = f->view_block >= 0 ? (double)f->view_block : HUGE_VAL;
    offsets[M_BLOCK_MAX] = f->view_block >= 0 ? -(double)f->view_block : HUGE_VAL;
    offsets[M_EXTENT_MIN] = f->view_extent >= 0 ? (double)f->view_extent : HUGE_VAL;
    offsets[M_EXTENT_MAX] = f->view_extent >= 0 ? -(double)f->view_extent : HUGE_VAL;
    offsets[M_CONTIG] = f->contiguous;
    int root = f->rank == 0;
    for (size_t i = 0; i < nmax; i++)
        min[nmin + i] = -max[i];
    PMPI_Reduce(root ? MPI_IN_PLACE : sum, sum, (int)nsum, MPI_DOUBLE, MPI_SUM, 0, f->comm);
    PMPI_Reduce(root ? MPI_IN_PLACE : min, min, (int)(nmin + nmax), MPI_DOUBLE, MPI_MIN, 0,
                f->comm);
    for (size_t i = 0; root && i < nmax; i++)
        max[i] = -min[nmin + i];
    if (broken_any)
        iot__warn(f->rank == 0,
                  "a rank ran out of memory while tracing %s; its figures are incomplete", f->name);
    if (f->rank != 0)
        goto done;

    /* Step 3: rank 0 keeps what was reduced; its rows are written at MPI_Finalize. A
     * summed row names the hints in force at rank 0's last call of it (collective
     * decisions change them on every rank together). */
    int *cell_hints = iot__malloc((ncells + 1) * sizeof *cell_hints);
    k = 0;
    for (int c = 0; cell_hints && c < NCELLS; c++) {
        if (!shape_all[c])
            continue;
        const struct iot_agg *a = agg_cell(f, c);
        cell_hints[k++] = a ? a->hint_set : f->hint_seq;
    }
    struct iot_closed here = {
        .cell_hints = cell_hints,
        .name = f->name,
        .size = f->size,
        .hint_seq = f->hint_seq,
        .opened_at = f->opened_at,
        .closed_at = f->closed_at,
        .close_seq = f->close_seq,
        .coll = f->coll,
        .ncoll = ncoll,
        .ncells = ncells,
        .shape_all = shape_all,
        .sum = sum,
        .min = min,
        .max = max,
        .nsum = nsum,
        .broken_any = broken_any,
        .ncoll_differs = ncoll_differs,
    };
    struct iot_closed *kept = iot__malloc(sizeof *kept);
    if (!kept) {
        /* No memory to keep it: the rows are written now, on the program's time. */
        pthread_mutex_lock(&iot__state.lock);
        closed_write(&here);
        pthread_mutex_unlock(&iot__state.lock);
        free(cell_hints);
        goto done;
    }
    *kept = here;
    f->name = NULL;
    f->coll = NULL;
    shape_all = NULL;
    sum = min = max = NULL;
    /* In order of closing: a deferred file's reduction comes after later closes, so its
     * rows go among those closed since the first file waiting (reduce_from), not at the end. */
    pthread_mutex_lock(&iot__state.lock);
    struct iot_closed **at =
        iot__state.reduce_from ? iot__state.reduce_from : iot__state.closed_tail;
    while (*at && (*at)->close_seq < kept->close_seq)
        at = &(*at)->next;
    kept->next = *at;
    *at = kept;
    if (!kept->next)
        iot__state.closed_tail = &kept->next;
    pthread_mutex_unlock(&iot__state.lock);
done:
    free(shape);
    free(shape_all);
    free(sum);
    free(min);
    free(max);
}

/*
 * RATIONALE: a close reduces its file's figures over the file's group (five collectives,
 * about 20 us of a 1 ms I/O phase, bench/trace_cost.py), but nothing needs them before
 * MPI_Finalize writes the log: a file of the world's group (one that borrowed the world's
 * duplicate) keeps them until then, and MPI_Finalize reduces them all, as Darshan does.
 * Such files close in the same order on every rank (only one holds the duplicate at a
 * time, and opening and closing are collective), so the count of waiting files, and the
 * order they are reduced in, are the same everywhere without a message. At most
 * DEFER_MAX wait (their summed rows and records stay in memory); the close that finds
 * them all waiting reduces them there.
 */
enum { DEFER_MAX = 64 };

static void reduce_deferred(void) {
    struct iot_state *s = &iot__state;
    while (s->deferred) {
        struct iot_file *f = s->deferred;
        s->deferred = f->next;
        file_reduce(f);
        f->comm = MPI_COMM_NULL; /* the world's duplicate, lent: not freed here */
        file_free(f);
    }
    s->deferred_tail = &s->deferred;
    s->ndeferred = 0;
    s->reduce_from = NULL;
}

void iot__file_close_state(struct iot_file *f, uint64_t close_start, uint64_t close_ticks,
                           int result) {
    struct iot_state *s = &iot__state;
    file_unlink(f);
    f->closed_at = iot__now();
    pthread_mutex_lock(&s->lock);
    f->close_seq = s->closes++;
    pthread_mutex_unlock(&s->lock);
    if (f->traced) {
        iot__trace_call(f, IOT_OP_CLOSE, close_start, close_ticks, 0, result);
        if (f->borrowed) {
            if (s->ndeferred == DEFER_MAX)
                reduce_deferred();
            if (s->ndeferred++ == 0) {
                pthread_mutex_lock(&s->lock);
                s->reduce_from = s->closed_tail;
                pthread_mutex_unlock(&s->lock);
            }
            s->world_lent = 0; /* the next file may borrow it; this one reduces on it later */
            f->next = NULL;
            *s->deferred_tail = f;
            s->deferred_tail = &f->next;
            return;
        }
        file_reduce(f);
    }
    file_comm_release(&f->comm, f->borrowed);
    file_free(f);
}

/* ------------------------------------------------------------ job log */

/* Writes the job record; 0, or -1 when it could not be made (no memory) or written. */
static int log_write_job(FILE *fp) {
    struct iot_state *s = &iot__state;
    struct iot_buf b = {0};
    iot__buf_printf(&b, "{\"record\": \"job\", \"format\": \"iotuner-trace\", \"version\": 1, "
                        "\"program\": ");
    iot__buf_json_string(&b, s->program);
    iot__buf_printf(&b, ", \"nprocs\": %d, \"nodes\": %d, \"ranks_per_node\": %d, \"mode\": ",
                    s->world_size, s->nodes, s->ranks_per_node);
    iot__buf_json_string(&b, s->mode_text ? s->mode_text : "");
    iot__buf_printf(&b, ", \"table\": ");
    iot__buf_json_string(&b, s->tune ? s->table_path : "");
    iot__buf_printf(&b, ", \"policy\": \"%s\", \"host\": ", s->policy_app ? "app" : "table");
    iot__buf_json_string(&b, s->host);
    iot__buf_printf(&b, ", \"mpi_library\": ");
    iot__buf_json_string(&b, s->mpi_library);
    iot__buf_printf(&b, ", \"start_time\": %.3f, \"job_tag\": ", s->start_wall);
    iot__buf_json_string(&b, s->job_tag);
    iot__buf_printf(&b, ", \"io_component\": ");
    iot__buf_json_string(&b, s->io_component);
    if (s->cwd[0]) {
        iot__buf_printf(&b, ", \"cwd\": ");
        iot__buf_json_string(&b, s->cwd);
    }
    if (s->hint_map.n > 0) {
        iot__buf_printf(&b, ", \"hint_map\": {");
        for (int i = 0; i < s->hint_map.n; i++) {
            iot__buf_printf(&b, "%s", i ? ", " : "");
            iot__buf_json_string(&b, s->hint_map.keys[i]);
            iot__buf_printf(&b, ": ");
            if (s->hint_map.vals[i][0])
                iot__buf_json_string(&b, s->hint_map.vals[i]);
            else
                iot__buf_printf(&b, "null");
        }
        iot__buf_printf(&b, "}");
    }
    iot__buf_printf(&b, "}\n");
    int ok = b.data && !b.failed && fputs(b.data, fp) >= 0;
    iot__buf_free(&b);
    return ok ? 0 : -1;
}

/* RATIONALE: rank 0 counts the rows of the whole job's log; memchr finds each newline
 * several bytes at a time. */
static size_t count_lines(const char *data, size_t len) {
    size_t n = 0;
    const char *end = data + len;
    for (const char *p = data; p < end; p++, n++) {
        p = memchr(p, '\n', (size_t)(end - p));
        if (!p)
            break;
    }
    return n;
}

void iot__log_finish(void) {
    struct iot_state *s = &iot__state;
    iot__hints_finish();
    reduce_deferred();
    /* The rows of the files closed so far, in the order they closed. */
    while (s->closed) {
        struct iot_closed *c = s->closed;
        s->closed = c->next;
        closed_write(c);
        closed_free(c);
    }
    s->closed_tail = &s->closed;
    /* Files still open: their groups may not all be here in the same order,
     * so no reduction; rank 0 of each notes what it saw. */
    for (struct iot_file *f = s->files; f; f = f->next) {
        if (!f->traced || f->rank != 0 || !iot__log_reserve())
            continue;
        iot__buf_printf(&s->out, "{\"record\": \"file\", \"file\": ");
        iot__buf_json_string(&s->out, f->name);
        iot__buf_printf(&s->out,
                        ", \"nprocs\": %d, \"opened_at\": %.6f, \"closed_at\": null, "
                        "\"bytes_read\": %llu, \"bytes_written\": %llu, \"pattern\": null, "
                        "\"reduced\": false, \"complete\": false}\n",
                        f->size, f->opened_at, (unsigned long long)f->bytes_read,
                        (unsigned long long)f->bytes_written);
        iot__warn(1,
                  "%s was still open at MPI_Finalize; the log has rank 0's bytes of it, no "
                  "rows of its calls",
                  f->name);
    }

    /* Rank 0 prepares the file and a buffer, and says whether to send at all,
     * so a failure there never leaves a sender waiting. */
    const size_t piece = (size_t)1 << 24;
    unsigned long long *sizes = NULL;
    char stamp[32], name[4600], tmp[4700];
    FILE *fp = NULL;
    char *chunk = NULL;
    if (s->world_rank == 0) {
        time_t start = (time_t)s->start_wall;
        struct tm tm;
        localtime_r(&start, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(name, sizeof name, "%s/%s-%s-%d%s%s.iotrace.jsonl", s->log_dir, s->program, stamp,
                 (int)getpid(), s->job_tag[0] ? "-" : "", s->job_tag);
        snprintf(tmp, sizeof tmp, "%s/.%s-%s-%d.tmp", s->log_dir, s->program, stamp, (int)getpid());
        /* 0600: a trace names files and programs; only its owner reads it. O_EXCL: never
         * write through a name someone else put there. */
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        fp = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!fp) {
            iot__warn(1, "cannot write the trace log %s: %s", tmp, strerror(errno));
            if (fd >= 0)
                close(fd);
        }
        chunk = fp ? iot__malloc(piece) : NULL;
        sizes = fp ? iot__calloc((size_t)s->world_size, sizeof *sizes) : NULL;
        /* The job record first: a log without it would be no log at all. */
        if (fp && (!chunk || !sizes || log_write_job(fp) != 0)) {
            iot__warn(1, "out of memory writing the trace log");
            fclose(fp);
            unlink(tmp);
            fp = NULL;
            free(chunk);
            free(sizes);
        }
    }
    int ready = fp != NULL;
    PMPI_Bcast(&ready, 1, MPI_INT, 0, s->world);
    if (!ready)
        return;
    unsigned long long mine = s->out.failed ? 0 : s->out.len;
    unsigned long long dropped = s->dropped_rows + (s->out.failed ? 1 : 0), dropped_all = 0;
    PMPI_Gather(&mine, 1, MPI_UNSIGNED_LONG_LONG, sizes, 1, MPI_UNSIGNED_LONG_LONG, 0, s->world);
    PMPI_Reduce(&dropped, &dropped_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, s->world);
    if (s->world_rank != 0) {
        for (unsigned long long off = 0; off < mine; off += piece) {
            size_t n = mine - off < piece ? (size_t)(mine - off) : piece;
            PMPI_Send(s->out.data + off, (int)n, MPI_CHAR, 0, 0, s->world);
        }
        return;
    }

    if (mine)
        fwrite(s->out.data, 1, (size_t)mine, fp);
    size_t rows = count_lines(s->out.data, (size_t)mine);
    for (int r = 1; r < s->world_size; r++) {
        for (unsigned long long off = 0; off < sizes[r]; off += piece) {
            size_t n = sizes[r] - off < piece ? (size_t)(sizes[r] - off) : piece;
            PMPI_Recv(chunk, (int)n, MPI_CHAR, r, 0, s->world, MPI_STATUS_IGNORE);
            fwrite(chunk, 1, n, fp);
            rows += count_lines(chunk, n);
        }
    }
    free(chunk);
    free(sizes);
    fprintf(fp,
            "{\"record\": \"end\", \"rows\": %zu, \"dropped_rows\": %llu, \"warnings\": [%s]}\n",
            rows, dropped_all, s->warnings.data ? s->warnings.data : "");
    int bad = fflush(fp) != 0 || fsync(fileno(fp)) != 0;
    bad = fclose(fp) != 0 || bad;
    if (bad || rename(tmp, name) != 0) {
        iot__warn(1, "cannot write the trace log %s: %s", name, strerror(errno));
        unlink(tmp);
    }
}
