/*
 * dtype.c: the layout of a datatype's data, decoded once from its constructor
 * (MPI_Type_get_envelope and MPI_Type_get_contents, recursively), for the access shape
 * of a trace's rows (formats/README.md, "Access shape").
 *
 * The decoder walks the type map in order and merges each piece with the one before
 * when it starts where that one ended, so a vector of contiguous blocks that touch is
 * one piece. It keeps only figures (pieces, the smallest and the most frequent length),
 * never the list. RATIONALE: a file view of 4-byte pieces over a large array has
 * millions of them; the walk stops after LEAVES_MAX leaves and extrapolates the count
 * from the bytes it saw, which a regular type (nearly all of them) makes exact.
 */
#include "iot.h"

#include <stdlib.h>

enum {
    LEAVES_MAX = 1 << 16, /* leaves visited at most: a few ms */
    DEPTH_MAX = 32,       /* nesting followed at most */
    LENGTHS = 16          /* distinct piece lengths counted for the most frequent one */
};

struct walk {
    MPI_Count leaves, emitted; /* leaves visited; bytes of data seen */
    int cut;                   /* stopped at LEAVES_MAX: counts extrapolated */
    int failed;                /* a query failed or a constructor is not known */
    int open;                  /* a piece is being extended */
    MPI_Aint start, end;       /* the piece being extended */
    MPI_Aint first_start;      /* where the type's first piece starts */
    MPI_Count pieces, min;
    struct {
        MPI_Count length, count;
    } lengths[LENGTHS];
    int nlengths;
};

static void piece_close(struct walk *w) {
    if (!w->open)
        return;
    MPI_Count length = w->end - w->start;
    if (w->pieces == 0 || length < w->min)
        w->min = length;
    w->pieces++;
    for (int i = 0; i < w->nlengths; i++)
        if (w->lengths[i].length == length) {
            w->lengths[i].count++;
            return;
        }
    if (w->nlengths < LENGTHS)
        w->lengths[w->nlengths++].length = length, w->lengths[w->nlengths - 1].count = 1;
}

static void emit(struct walk *w, MPI_Aint offset, MPI_Count length) {
    if (length <= 0)
        return;
    w->emitted += length;
    if (w->open && offset == w->end) {
        w->end += (MPI_Aint)length;
        return;
    }
    if (w->open)
        piece_close(w);
    else
        w->first_start = offset; /* the type's first piece */
    w->open = 1;
    w->start = offset;
    w->end = offset + (MPI_Aint)length;
}

static int stopped(struct walk *w) {
    return w->cut || w->failed;
}

static void walk_type(struct walk *w, MPI_Datatype type, MPI_Aint disp, int depth);

/* The size of a predefined type, or -1 for a derived one (or on failure, then the walk has
 * failed). RATIONALE: the loops below walk `count` elements of one type; a predefined one
 * is emitted directly, without two MPI calls per element. */
static int named_size(struct walk *w, MPI_Datatype type) {
    int nints, naints, ntypes, combiner, size = 0;
    if (PMPI_Type_get_envelope(type, &nints, &naints, &ntypes, &combiner) != MPI_SUCCESS ||
        (combiner == MPI_COMBINER_NAMED && PMPI_Type_size(type, &size) != MPI_SUCCESS)) {
        w->failed = 1;
        return -1;
    }
    return combiner == MPI_COMBINER_NAMED ? size : -1;
}

/* One element of `type` at disp: emitted directly when `named` (its size) is >= 0. */
static void walk_element(struct walk *w, MPI_Datatype type, int named, MPI_Aint disp, int depth) {
    if (named < 0) {
        walk_type(w, type, disp, depth + 1);
        return;
    }
    emit(w, disp, named);
    if (++w->leaves >= LEAVES_MAX)
        w->cut = 1;
}

/* The extent of type, or -1 (then the walk has failed). */
static MPI_Aint extent_of(struct walk *w, MPI_Datatype type) {
    MPI_Aint lb = 0, extent = 0;
    if (PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS) {
        w->failed = 1;
        return -1;
    }
    return extent;
}

/* count blocks of blocklen[i] (or blocklen[0] when one_length) elements of types[i] (or
 * types[0] when one_type) at displacements disp[i] (in bytes, or extents of the type
 * when in_extents). */
struct blocks {
    int count;
    const int *blocklen;
    int one_length;
    const int *int_disp;    /* displacements in extents of the element type, or */
    const MPI_Aint *a_disp; /* in bytes */
    MPI_Datatype *types;
    int one_type;
};

static void walk_blocks(struct walk *w, const struct blocks *b, MPI_Aint disp, int depth) {
    for (int i = 0; i < b->count && !stopped(w); i++) {
        MPI_Datatype type = b->types[b->one_type ? 0 : i];
        MPI_Aint extent = extent_of(w, type);
        int named = named_size(w, type);
        MPI_Aint at = b->a_disp ? b->a_disp[i] : (MPI_Aint)b->int_disp[i] * extent;
        int length = b->blocklen[b->one_length ? 0 : i];
        for (int j = 0; j < length && !stopped(w); j++)
            walk_element(w, type, named, disp + at + (MPI_Aint)j * extent, depth);
    }
}

/* The indices one process owns along one dimension of a darray, as runs (MPI 4.0 §5.1.12). */
struct runs {
    int n;
    int *start, *length;
};

static int darray_runs(struct runs *r, int gsize, int distrib, int darg, int psize, int coord) {
    r->n = 0;
    int block = darg;
    if (distrib == MPI_DISTRIBUTE_NONE)
        block = gsize, psize = 1, coord = 0;
    else if (darg == MPI_DISTRIBUTE_DFLT_DARG)
        block = distrib == MPI_DISTRIBUTE_BLOCK ? (gsize + psize - 1) / psize : 1;
    if (gsize < 0 || psize < 1 || (block <= 0 && gsize > 0))
        return -1;
    /* Block (and none): one run. Cyclic: one every psize blocks. */
    long long step =
        distrib == MPI_DISTRIBUTE_CYCLIC ? (long long)block * psize : (long long)gsize + 1;
    size_t most = (size_t)(gsize / (step > 0 ? step : 1)) + 2;
    r->start = iot__malloc(most * sizeof *r->start);
    r->length = iot__malloc(most * sizeof *r->length);
    if (!r->start || !r->length)
        return -1;
    for (long long at = (long long)coord * block; at < gsize && (size_t)r->n < most; at += step) {
        long long length = at + block <= gsize ? block : gsize - at;
        r->start[r->n] = (int)at, r->length[r->n] = (int)length, r->n++;
    }
    return 0;
}

/* A subarray or darray: along each dimension the runs of indices the type holds, walked
 * in array order (MPI_ORDER_C: the last dimension fastest). */
static void walk_grid(struct walk *w, int ndims, const int *sizes, struct runs *runs, int order,
                      MPI_Datatype old, MPI_Aint disp, int depth) {
    MPI_Aint extent = extent_of(w, old);
    int named = named_size(w, old);
    MPI_Aint stride[DEPTH_MAX];
    int fastest = order == MPI_ORDER_C ? ndims - 1 : 0, step = order == MPI_ORDER_C ? -1 : 1;
    MPI_Aint s = extent;
    for (int k = 0, d = fastest; k < ndims; k++, d += step) {
        stride[d] = s;
        s *= sizes[d];
    }
    int run[DEPTH_MAX] = {0}, index[DEPTH_MAX] = {0};
    while (!stopped(w)) {
        MPI_Aint at = disp;
        for (int d = 0; d < ndims; d++)
            at += (MPI_Aint)(runs[d].start[run[d]] + index[d]) * stride[d];
        walk_element(w, old, named, at, depth);
        /* The next index, the fastest dimension first. */
        int k = 0, d = fastest;
        for (; k < ndims; k++, d += step) {
            if (++index[d] < runs[d].length[run[d]])
                break;
            index[d] = 0;
            if (++run[d] < runs[d].n)
                break;
            run[d] = 0;
        }
        if (k == ndims)
            return;
    }
}

static void walk_subarray(struct walk *w, const int *ints, MPI_Datatype old, MPI_Aint disp,
                          int depth) {
    int ndims = ints[0];
    struct runs runs[DEPTH_MAX];
    int start[DEPTH_MAX], length[DEPTH_MAX];
    if (ndims < 1 || ndims > DEPTH_MAX) {
        w->failed = 1;
        return;
    }
    for (int d = 0; d < ndims; d++) {
        start[d] = ints[1 + 2 * ndims + d], length[d] = ints[1 + ndims + d];
        runs[d] = (struct runs){length[d] > 0, &start[d], &length[d]};
        if (length[d] <= 0)
            return; /* no data */
    }
    walk_grid(w, ndims, ints + 1, runs, ints[1 + 3 * ndims], old, disp, depth);
}

static void walk_darray(struct walk *w, const int *ints, MPI_Datatype old, MPI_Aint disp,
                        int depth) {
    int size = ints[0], rank = ints[1], ndims = ints[2];
    if (ndims < 1 || ndims > DEPTH_MAX || size < 1) {
        w->failed = 1;
        return;
    }
    const int *gsizes = ints + 3, *distribs = gsizes + ndims, *dargs = distribs + ndims;
    const int *psizes = dargs + ndims;
    struct runs runs[DEPTH_MAX] = {{0}};
    /* The process grid is in row-major order whatever the array's order. */
    int rest = rank, ok = 1, empty = 0;
    for (int d = ndims - 1; d >= 0 && ok; d--) {
        int coord = psizes[d] > 0 ? rest % psizes[d] : 0;
        rest = psizes[d] > 0 ? rest / psizes[d] : 0;
        ok = darray_runs(&runs[d], gsizes[d], distribs[d], dargs[d], psizes[d], coord) == 0;
        empty |= ok && runs[d].n == 0;
    }
    if (!ok)
        w->failed = 1;
    else if (!empty)
        walk_grid(w, ndims, gsizes, runs, ints[3 + 4 * ndims], old, disp, depth);
    for (int d = 0; d < ndims; d++) {
        free(runs[d].start);
        free(runs[d].length);
    }
}

/* The constructor's arguments, as MPI_Type_get_contents gives them. */
struct contents {
    int *ints;
    MPI_Aint *aints;
    MPI_Datatype *types;
    int ntypes;
};

static void walk_contents(struct walk *w, int combiner, const struct contents *c, MPI_Aint disp,
                          int depth) {
    const int *i = c->ints;
    const MPI_Aint *a = c->aints;
    MPI_Datatype *t = c->types;
    MPI_Aint extent;
    int named;
    switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED: /* the bounds set the period of tiling, not the data */
        walk_type(w, t[0], disp, depth + 1);
        return;
    case MPI_COMBINER_CONTIGUOUS:
        extent = extent_of(w, t[0]);
        named = named_size(w, t[0]);
        for (int k = 0; k < i[0] && !stopped(w); k++)
            walk_element(w, t[0], named, disp + (MPI_Aint)k * extent, depth);
        return;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
        extent = extent_of(w, t[0]);
        named = named_size(w, t[0]);
        for (int k = 0; k < i[0] && !stopped(w); k++) {
            MPI_Aint at = combiner == MPI_COMBINER_VECTOR ? (MPI_Aint)k * i[2] * extent : k * a[0];
            for (int j = 0; j < i[1] && !stopped(w); j++)
                walk_element(w, t[0], named, disp + at + (MPI_Aint)j * extent, depth);
        }
        return;
    case MPI_COMBINER_INDEXED:
        walk_blocks(w, &(struct blocks){i[0], i + 1, 0, i + 1 + i[0], NULL, t, 1}, disp, depth);
        return;
    case MPI_COMBINER_HINDEXED:
        walk_blocks(w, &(struct blocks){i[0], i + 1, 0, NULL, a, t, 1}, disp, depth);
        return;
    case MPI_COMBINER_INDEXED_BLOCK:
        walk_blocks(w, &(struct blocks){i[0], i + 1, 1, i + 2, NULL, t, 1}, disp, depth);
        return;
    case MPI_COMBINER_HINDEXED_BLOCK:
        walk_blocks(w, &(struct blocks){i[0], i + 1, 1, NULL, a, t, 1}, disp, depth);
        return;
    case MPI_COMBINER_STRUCT:
        walk_blocks(w, &(struct blocks){i[0], i + 1, 0, NULL, a, t, 0}, disp, depth);
        return;
    case MPI_COMBINER_SUBARRAY:
        walk_subarray(w, i, t[0], disp, depth);
        return;
    case MPI_COMBINER_DARRAY:
        walk_darray(w, i, t[0], disp, depth);
        return;
    default: /* the Fortran 90 types and constructors of later MPIs: not decoded */
        w->failed = 1;
    }
}

static void walk_type(struct walk *w, MPI_Datatype type, MPI_Aint disp, int depth) {
    int nints = 0, naints = 0, ntypes = 0, combiner = 0;
    if (stopped(w))
        return;
    if (PMPI_Type_get_envelope(type, &nints, &naints, &ntypes, &combiner) != MPI_SUCCESS) {
        w->failed = 1;
        return;
    }
    if (combiner == MPI_COMBINER_NAMED) {
        int size = 0;
        if (PMPI_Type_size(type, &size) != MPI_SUCCESS)
            w->failed = 1;
        else
            emit(w, disp, size);
        if (++w->leaves >= LEAVES_MAX)
            w->cut = 1;
        return;
    }
    if (depth >= DEPTH_MAX) {
        w->failed = 1;
        return;
    }
    struct contents c = {iot__malloc(((size_t)nints + 1) * sizeof *c.ints),
                         iot__malloc(((size_t)naints + 1) * sizeof *c.aints),
                         iot__malloc(((size_t)ntypes + 1) * sizeof *c.types), 0};
    if (!c.ints || !c.aints || !c.types ||
        PMPI_Type_get_contents(type, nints, naints, ntypes, c.ints, c.aints, c.types) !=
            MPI_SUCCESS) {
        w->failed = 1;
    } else {
        c.ntypes = ntypes;
        walk_contents(w, combiner, &c, disp, depth);
    }
    /* get_contents hands out new handles of the derived types among them (MPI 4.0 §5.1.13). */
    for (int k = 0; k < c.ntypes; k++) {
        int n1, n2, n3, named = 0;
        if (PMPI_Type_get_envelope(c.types[k], &n1, &n2, &n3, &named) == MPI_SUCCESS &&
            named != MPI_COMBINER_NAMED)
            iot__real.Type_free(&c.types[k]);
    }
    free(c.ints);
    free(c.aints);
    free(c.types);
}

int iot__layout_walk(MPI_Datatype type, struct iot_layout *layout) {
    MPI_Count size = 0, lb = 0, extent = 0;
    *layout = (struct iot_layout){0};
    if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS ||
        PMPI_Type_get_extent_x(type, &lb, &extent) != MPI_SUCCESS)
        return -1;
    struct walk w = {0};
    walk_type(&w, type, 0, 0);
    piece_close(&w);
    if (w.failed || w.emitted <= 0)
        return -1;
    MPI_Count pieces = w.pieces;
    if (w.cut) /* the rest like what was seen */
        pieces = (MPI_Count)((double)pieces * (double)size / (double)w.emitted + 0.5);
    MPI_Count typical = 0, most = 0;
    for (int k = 0; k < w.nlengths; k++)
        if (w.lengths[k].count > most ||
            (w.lengths[k].count == most && w.lengths[k].length > typical))
            typical = w.lengths[k].length, most = w.lengths[k].count;
    *layout = (struct iot_layout){
        .size = size,
        .extent = extent,
        .pieces = pieces > 0 ? pieces : 1,
        .piece_min = w.min,
        .piece_typical = typical,
        /* Tiled, one instance's last piece runs into the next one's first. */
        .joins = w.first_start == lb && w.end == lb + extent,
        .known = 1,
    };
    return 0;
}
