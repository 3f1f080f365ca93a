/*
 * iokernel: one configurable MPI-IO kernel for the tests, the demo and the benchmarks.
 * Run `iokernel --help` for the options.
 *
 * Layouts. W is the number of ranks that move data (all ranks, or 1 with --writers root),
 * w a rank's index among them, size = --size, p the repetition (0 .. --repeat - 1).
 *
 *   contiguous  in repetition p, writer w covers bytes [(p*W + w)*size, +size).
 *
 *   strided     data moves in blocks of --block bytes. The file is cut into slots of
 *               unit = block / fill bytes (rounded to the nearest byte, at least block);
 *               a slot holds one block followed by unit - block bytes of hole. With
 *               nb = size / block blocks per repetition, writer w's k-th block of
 *               repetition p goes to slot p*nb*W + k*W + w, i.e. file offset
 *               (p*nb*W + k*W + w) * unit. Every writer sets a file view (etype
 *               MPI_BYTE, filetype one block resized to W*unit bytes, displacement
 *               w*unit), so each access really is non-contiguous; explicit offsets
 *               (--api explicit) count bytes of that view.
 *
 *   The shared and ordered APIs cannot use per-rank views (MPI requires all ranks to have
 *   the same view for shared file pointer routines), so there the shared pointer hands out
 *   positions: call c of repetition p moves len_c bytes per writer, taken in rank order, so
 *   writer w's data starts at stream byte D = p*W*size + before_c*W + w*len_c (before_c:
 *   bytes of the calls before c). Contiguous: stream byte D is file byte D. Strided: all
 *   ranks share the view "one block resized to unit bytes", so stream byte D lands in slot
 *   D / block at D % block. With --calls 1 and the contiguous layout this is exactly the
 *   layout above. MPI_File_write_shared promises no order between ranks, so the writers
 *   take turns (a token passed in rank order); that makes the positions known in advance
 *   and lets reads be verified. The turn-taking is part of the measured time.
 *
 * Content. The byte at file offset o is (unsigned char)((o*131 + 7) ^ (o >> 9)), computed in
 * unsigned 64-bit arithmetic: every layout writes the same function of the offset, so a read
 * is verified wherever it lands. iokernel never writes holes, but two things can put other
 * bytes there: the file is not truncated before writing (use a new path, or --delete), and
 * ROMIO's data sieving for non-contiguous independent writes (also taken by collective writes
 * at one rank or with romio_cb_write=disable) reads the covered range, overlays the blocks and
 * writes it all back; in a range past the end of the file its buffer starts as 0xff, so such
 * holes become 0xff bytes, unless romio_ds_write=disable. Compare only written bytes.
 *
 * --calls N splits each repetition's per-rank data into N calls whose sizes differ by at most
 * one unit (one byte, or one block for strided); the first calls get the larger share.
 *
 * Segments. A rank makes --repeat x --calls data calls per open: checkpoint writers write
 * one segment per variable (every rank its block of it, side by side), which is --repeat;
 * --calls cuts each block into smaller calls, as a writer with a transfer size below its
 * block size does. All of them happen between one MPI_File_open and one MPI_File_close,
 * followed by MPI_File_sync for writes (unless --no-sync), as the programs it stands for do.
 *
 * Timing. The result line gives the slowest rank's time of each phase, each taken apart
 * (so they need not add up to the total, whose slowest rank may be another):
 *   open_s   MPI_File_open and MPI_File_set_view (what a program does before its first call);
 *   data_s   the data calls (with MPI_Wait/MPI_Waitall for --nonblocking) and, for writes,
 *            MPI_File_sync: until the data is on storage, as a program's checkpoint is only
 *            done then (without it, writes measure the page cache, and hints that help
 *            storage would look the same as those that do not);
 *   close_s  MPI_File_close;
 * and, as before, seconds: the slowest rank's time from just before MPI_File_open to just
 * after MPI_File_close. bandwidth_mib_s is bytes over seconds, data_mib_s bytes over data_s.
 * Buffers are filled (and read data is verified) outside the window, unless one rank's data
 * of all repetitions exceeds 1 GiB; then one repetition is held at a time and filled or
 * verified inside the open-to-close window, but outside data_s; for collective access the
 * ranks then meet at a barrier after each fill, so no rank's data_s holds its wait for a
 * slower rank's fill.
 *
 * Exit codes: 0 success, 1 MPI error or verification failure, 2 bad options.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_WRITE = 1, OP_READ = 2, OP_BOTH = 3 };
enum { API_EXPLICIT, API_INDIVIDUAL, API_SHARED, API_ORDERED };

/* Above this many bytes per rank, hold one repetition at a time (see the top comment). */
#define HOLD_ALL_LIMIT (1LL << 30)
#define TOKEN_TAG 4242

struct options {
    const char *file;
    int op;
    int collective;
    int api;
    int strided;
    long long size;
    long long block;
    double fill;
    long long calls;
    long long repeat;
    int nonblocking;
    int split;
    int root_only;
    int sync;
    int print_info;
    int expect_missing;
    int delete_file;
    int nhints;
    const char **hints; /* "KEY=VALUE" strings from argv */
    const char *plan;   /* --plan: a file of measurements, one per line */
};

/* First MPI error seen by this rank; later ones are consequences and are not reported. */
struct failure {
    int code;
    char routine[64];
};

struct kernel {
    const struct options *o;
    int rank, nprocs;
    int writer;        /* this rank moves data */
    long long W, w;    /* number of writers, this rank's index among them */
    long long unit;    /* strided: slot size in bytes */
    long long *len;    /* bytes per call, per writer */
    long long *before; /* bytes of the calls before call c */
    MPI_Request *reqs; /* --nonblocking: the requests of one repetition */
    int hold_all;
    unsigned char *buf;
    struct failure fail;
    const char *id;       /* --plan: the id of the measurement being made, printed with it */
    long long bad_offset; /* first offset that did not verify, LLONG_MAX if none */
    unsigned char bad_want, bad_got;
};

static const char *usage_text =
    "usage: iokernel --file PATH [options]\n"
    "  --op write|read|both          default write; read verifies what a write run made\n"
    "  --pattern collective|independent   default collective\n"
    "  --api explicit|individual|shared|ordered   default explicit\n"
    "  --layout contiguous|strided   default contiguous\n"
    "  --size BYTES                  bytes per rank per repetition (default 1m; k,m,g suffixes)\n"
    "  --block BYTES                 strided: block size (default 4k)\n"
    "  --fill F                      strided: fraction 0<F<=1 of the region the blocks cover\n"
    "  --calls N                     calls per rank per repetition (default 1)\n"
    "  --repeat N                    repetitions (segments) per open, each a new region\n"
    "                                (default 1)\n"
    "  --nonblocking                 use the i* routines and MPI_Wait/MPI_Waitall\n"
    "  --split                       use split collectives (begin/end)\n"
    "  --writers all|root            root: only rank 0 does (independent) I/O\n"
    "  --hint KEY=VALUE              hint passed to MPI_File_open (repeatable)\n"
    "  --no-sync                     skip MPI_File_sync before close\n"
    "  --print-info                  rank 0 prints MPI_File_get_info after each open\n"
    "  --expect-missing              expect opening PATH read-only to fail\n"
    "  --delete                      MPI_File_delete PATH at the end\n"
    "  --plan FILE                   one measurement per line: ID [KEY=VALUE ...] (hints\n"
    "                                added to --hint); writes go to a new file each time\n";

static unsigned char pattern_byte(long long offset) {
    uint64_t o = (uint64_t)offset;
    return (unsigned char)((o * 131u + 7u) ^ (o >> 9));
}

/* ---- option parsing ---------------------------------------------------------------- */

/* Parses "4096", "64k", "1m", "2g" (binary units). Returns 0 on success. */
static int parse_bytes(const char *s, long long *out) {
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0)
        return -1;
    int shift = 0;
    switch (*end) {
    case '\0':
        break;
    case 'k':
    case 'K':
        shift = 10;
        end++;
        break;
    case 'm':
    case 'M':
        shift = 20;
        end++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        end++;
        break;
    default:
        return -1;
    }
    if (*end != '\0' || v > ((unsigned long long)LLONG_MAX >> shift))
        return -1;
    *out = (long long)(v << shift);
    return 0;
}

static int parse_positive(const char *s, long long *out) {
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1)
        return -1;
    *out = v;
    return 0;
}

/* Returns the index of s in names (NULL-terminated), or -1. */
static int pick(const char *s, const char *const *names) {
    for (int i = 0; names[i] != NULL; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/*
 * Fills o from argv. On a bad command line writes a message to msg and returns 2; returns 1
 * for --help (usage goes to stdout), 0 otherwise. Every rank parses the same argv, so every
 * rank reaches the same verdict without communicating.
 */
static int parse_options(int argc, char **argv, struct options *o, char *msg, size_t msglen) {
    static const char *const ops[] = {"write", "read", "both", NULL};
    static const char *const patterns[] = {"collective", "independent", NULL};
    static const char *const apis[] = {"explicit", "individual", "shared", "ordered", NULL};
    static const char *const layouts[] = {"contiguous", "strided", NULL};
    static const char *const writers[] = {"all", "root", NULL};
    int block_given = 0, fill_given = 0;

    memset(o, 0, sizeof *o);
    o->op = OP_WRITE;
    o->collective = 1;
    o->api = API_EXPLICIT;
    o->size = 1 << 20;
    o->block = 4096;
    o->fill = 1.0;
    o->calls = 1;
    o->repeat = 1;
    o->sync = 1;
    o->hints = calloc((size_t)argc, sizeof *o->hints);
    if (o->hints == NULL) {
        snprintf(msg, msglen, "iokernel: out of memory");
        return 2;
    }

    for (int i = 1; i < argc; i++) {
        char name[64];
        const char *arg = argv[i];
        const char *value = NULL;
        if (strncmp(arg, "--", 2) != 0) {
            snprintf(msg, msglen, "iokernel: expected an option starting with --, got '%s'", arg);
            return 2;
        }
        /* Accept both "--opt value" and "--opt=value". */
        const char *eq = strchr(arg, '=');
        size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
        if (n >= sizeof name) {
            snprintf(msg, msglen, "iokernel: unknown option '%s' (see --help)", arg);
            return 2;
        }
        memcpy(name, arg, n);
        name[n] = '\0';
        if (eq)
            value = eq + 1;

        static const char *const flags[] = {
            "--nonblocking",    "--split",  "--no-sync", "--print-info",
            "--expect-missing", "--delete", "--help",    NULL};
        int flag = pick(name, flags);
        if (flag >= 0) {
            if (value != NULL) {
                snprintf(msg, msglen, "iokernel: %s takes no value, got '%s'", name, value);
                return 2;
            }
            switch (flag) {
            case 0:
                o->nonblocking = 1;
                break;
            case 1:
                o->split = 1;
                break;
            case 2:
                o->sync = 0;
                break;
            case 3:
                o->print_info = 1;
                break;
            case 4:
                o->expect_missing = 1;
                break;
            case 5:
                o->delete_file = 1;
                break;
            default:
                return 1;
            }
            continue;
        }

        static const char *const valued[] = {
            "--file", "--op",    "--pattern", "--api",     "--layout", "--size", "--block",
            "--fill", "--calls", "--repeat",  "--writers", "--hint",   "--plan", NULL};
        int which = pick(name, valued);
        if (which < 0) {
            snprintf(msg, msglen, "iokernel: unknown option '%s' (see --help)", name);
            return 2;
        }
        if (value == NULL) {
            if (i + 1 >= argc) {
                snprintf(msg, msglen, "iokernel: %s needs a value", name);
                return 2;
            }
            value = argv[++i];
        }
        int k;
        switch (which) {
        case 12:
            o->plan = value;
            break;
        case 0:
            if (*value == '\0') {
                snprintf(msg, msglen, "iokernel: --file needs a path, got an empty string");
                return 2;
            }
            o->file = value;
            break;
        case 1:
            if ((k = pick(value, ops)) < 0) {
                snprintf(msg, msglen, "iokernel: --op must be write, read or both, got '%s'",
                         value);
                return 2;
            }
            o->op = k == 0 ? OP_WRITE : k == 1 ? OP_READ : OP_BOTH;
            break;
        case 2:
            if ((k = pick(value, patterns)) < 0) {
                snprintf(msg, msglen,
                         "iokernel: --pattern must be collective or independent, got '%s'", value);
                return 2;
            }
            o->collective = k == 0;
            break;
        case 3:
            if ((k = pick(value, apis)) < 0) {
                snprintf(msg, msglen,
                         "iokernel: --api must be explicit, individual, shared or ordered, "
                         "got '%s'",
                         value);
                return 2;
            }
            o->api = k;
            break;
        case 4:
            if ((k = pick(value, layouts)) < 0) {
                snprintf(msg, msglen, "iokernel: --layout must be contiguous or strided, got '%s'",
                         value);
                return 2;
            }
            o->strided = k == 1;
            break;
        case 5:
            if (parse_bytes(value, &o->size) != 0 || o->size < 1) {
                snprintf(msg, msglen,
                         "iokernel: --size must be a positive byte count like 4096, 64k, 1m "
                         "or 2g, got '%s'",
                         value);
                return 2;
            }
            break;
        case 6:
            if (parse_bytes(value, &o->block) != 0 || o->block < 1 || o->block > INT_MAX) {
                snprintf(msg, msglen,
                         "iokernel: --block must be a byte count from 1 to %d (k,m,g "
                         "suffixes allowed), got '%s'",
                         INT_MAX, value);
                return 2;
            }
            block_given = 1;
            break;
        case 7: {
            char *end;
            errno = 0;
            double f = strtod(value, &end);
            if (*value == '\0' || *end != '\0' || errno != 0 || !isfinite(f) || !(f > 0.0) ||
                f > 1.0) {
                snprintf(msg, msglen, "iokernel: --fill must be a number in (0, 1], got %s", value);
                return 2;
            }
            o->fill = f;
            fill_given = 1;
            break;
        }
        case 8:
            if (parse_positive(value, &o->calls) != 0) {
                snprintf(msg, msglen, "iokernel: --calls must be a positive integer, got '%s'",
                         value);
                return 2;
            }
            break;
        case 9:
            if (parse_positive(value, &o->repeat) != 0) {
                snprintf(msg, msglen, "iokernel: --repeat must be a positive integer, got '%s'",
                         value);
                return 2;
            }
            break;
        case 10:
            if ((k = pick(value, writers)) < 0) {
                snprintf(msg, msglen, "iokernel: --writers must be all or root, got '%s'", value);
                return 2;
            }
            o->root_only = k == 1;
            break;
        default: {
            const char *e = strchr(value, '=');
            if (e == NULL || e == value || (size_t)(e - value) > MPI_MAX_INFO_KEY ||
                strlen(e + 1) > MPI_MAX_INFO_VAL) {
                snprintf(msg, msglen,
                         "iokernel: --hint must be KEY=VALUE (key up to %d, value up to %d "
                         "characters), got '%s'",
                         MPI_MAX_INFO_KEY, MPI_MAX_INFO_VAL, value);
                return 2;
            }
            o->hints[o->nhints++] = value;
            break;
        }
        }
    }

    if (o->file == NULL) {
        snprintf(msg, msglen, "iokernel: --file PATH is required (see --help)");
        return 2;
    }
    if (o->expect_missing)
        return 0; /* only the open matters; the access options are not used */

    /* Combinations MPI has no routine for, or that contradict each other. */
    if (o->api == API_SHARED && o->collective) {
        snprintf(msg, msglen,
                 "iokernel: --api shared is independent only (MPI_File_write_shared); use "
                 "--pattern independent, or --api ordered for the collective form");
        return 2;
    }
    if (o->api == API_ORDERED && !o->collective) {
        snprintf(msg, msglen,
                 "iokernel: --api ordered is collective only (MPI_File_write_ordered); use "
                 "--pattern collective, or --api shared for the independent form");
        return 2;
    }
    if (o->split && !o->collective) {
        snprintf(msg, msglen,
                 "iokernel: --split needs --pattern collective (split routines are collective)");
        return 2;
    }
    if (o->split && o->nonblocking) {
        snprintf(msg, msglen, "iokernel: --split and --nonblocking exclude each other");
        return 2;
    }
    if (o->nonblocking && o->api == API_ORDERED) {
        snprintf(msg, msglen,
                 "iokernel: --nonblocking with --api ordered: MPI has no nonblocking ordered "
                 "routine (use --split for MPI_File_write_ordered_begin/end)");
        return 2;
    }
    if (o->root_only && o->collective) {
        snprintf(msg, msglen,
                 "iokernel: --writers root needs --pattern independent (in a collective "
                 "call every rank takes part)");
        return 2;
    }
    if (!o->strided && (block_given || fill_given)) {
        snprintf(msg, msglen, "iokernel: --block and --fill need --layout strided");
        return 2;
    }
    if (o->strided && (double)o->block / o->fill > (double)(1LL << 40)) {
        snprintf(msg, msglen,
                 "iokernel: --block / --fill must give slots of at most 1 TiB, got %lld / %g",
                 o->block, o->fill);
        return 2;
    }
    if (o->strided && o->size % o->block != 0) {
        snprintf(msg, msglen,
                 "iokernel: --size must be a multiple of --block for the strided layout, got "
                 "size %lld and block %lld",
                 o->size, o->block);
        return 2;
    }
    long long units = o->strided ? o->size / o->block : o->size;
    if (o->calls > units) {
        snprintf(msg, msglen,
                 "iokernel: --calls must be at most %lld (the %s per rank per repetition), got "
                 "%lld",
                 units, o->strided ? "blocks" : "bytes", o->calls);
        return 2;
    }
    /* The classic routines take an int count; the largest call is the first one. */
    long long largest = (units / o->calls + (units % o->calls != 0)) * (o->strided ? o->block : 1);
    if (largest > INT_MAX) {
        snprintf(msg, msglen,
                 "iokernel: one call would move %lld bytes, more than an int count holds "
                 "(%d); raise --calls",
                 largest, INT_MAX);
        return 2;
    }
    if (o->size > LLONG_MAX / o->repeat / 2) {
        snprintf(msg, msglen, "iokernel: --size times --repeat is too large");
        return 2;
    }
    return 0;
}

/* ---- placement and content ----------------------------------------------------------- */

/* File offset of byte j of call c in repetition p; j is 0 or a multiple of the block. */
static long long piece_offset(const struct kernel *k, long long p, long long c, long long j) {
    const struct options *o = k->o;
    if (o->api == API_SHARED || o->api == API_ORDERED) {
        long long d = p * k->W * o->size + k->before[c] * k->W + k->w * k->len[c] + j;
        return o->strided ? d / o->block * k->unit + d % o->block : d;
    }
    if (!o->strided)
        return (p * k->W + k->w) * o->size + k->before[c] + j;
    long long s = p * o->size + k->before[c] + j; /* byte in this writer's view */
    return (s / o->block * k->W + k->w) * k->unit + s % o->block;
}

/* Offset passed to the explicit-offset routines and to MPI_File_seek, in etype (byte) units. */
static MPI_Offset view_offset(const struct kernel *k, long long p, long long c) {
    const struct options *o = k->o;
    if (o->strided)
        return (MPI_Offset)(p * o->size + k->before[c]);
    return (MPI_Offset)((p * k->W + k->w) * o->size + k->before[c]);
}

static unsigned char *call_buffer(const struct kernel *k, long long p, long long c) {
    return k->buf + (k->hold_all ? p * k->o->size : 0) + k->before[c];
}

enum { FILL_DATA, FILL_WRONG, VERIFY };

/*
 * FILL_DATA writes the expected bytes of repetition p into the buffer, FILL_WRONG their
 * complement (so a byte a read did not deliver cannot pass), VERIFY compares and keeps the
 * lowest bad offset.
 */
static void touch_repetition(struct kernel *k, long long p, int mode) {
    const struct options *o = k->o;
    for (long long c = 0; c < o->calls; c++) {
        unsigned char *b = call_buffer(k, p, c);
        long long piece = o->strided ? o->block : k->len[c];
        for (long long j = 0; j < k->len[c]; j += piece) {
            long long off = piece_offset(k, p, c, j);
            unsigned char *q = b + j;
            for (long long i = 0; i < piece; i++) {
                unsigned char want = pattern_byte(off + i);
                if (mode == FILL_DATA) {
                    q[i] = want;
                } else if (mode == FILL_WRONG) {
                    q[i] = (unsigned char)~want;
                } else if (q[i] != want) {
                    if (off + i < k->bad_offset) {
                        k->bad_offset = off + i;
                        k->bad_want = want;
                        k->bad_got = q[i];
                    }
                    break; /* later bytes of this piece have higher offsets */
                }
            }
        }
    }
}

/*
 * MPI_Error_string of MPICH carries an error stack over several lines; every message of ours
 * is one line, so the line breaks become "; ".
 */
static void error_text(int code, char *text) {
    char raw[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, raw, &len);
    raw[len < MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING - 1] = '\0';
    size_t n = 0;
    for (const char *r = raw; *r != '\0' && n + 3 < MPI_MAX_ERROR_STRING; r++) {
        if (*r != '\n') {
            text[n++] = *r;
        } else if (r[1] != '\0') {
            if (n > 0 && text[n - 1] != ':')
                text[n++] = ';';
            text[n++] = ' ';
        }
    }
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == ';'))
        n--;
    text[n] = '\0';
}

/* ---- MPI calls ------------------------------------------------------------------------- */

static void note(struct failure *f, int rc, const char *routine) {
    if (rc != MPI_SUCCESS && f->code == MPI_SUCCESS) {
        f->code = rc;
        snprintf(f->routine, sizeof f->routine, "%s", routine);
    }
}

/*
 * One data access: call c of repetition p. Nonblocking routines leave their request in *req
 * (MPI_REQUEST_NULL otherwise). Returns the MPI result and names the routine in *name.
 */
static int access_call(struct kernel *k, MPI_File fh, int is_write, long long p, long long c,
                       MPI_Request *req, const char **name) {
    const struct options *o = k->o;
    unsigned char *buf = call_buffer(k, p, c);
    int n = (int)k->len[c];
    MPI_Offset off = view_offset(k, p, c);
    MPI_Status st;
    int rc;

    *req = MPI_REQUEST_NULL;
    switch (o->api) {
    case API_EXPLICIT:
        if (!o->collective && !o->nonblocking) {
            *name = is_write ? "MPI_File_write_at" : "MPI_File_read_at";
            return is_write ? MPI_File_write_at(fh, off, buf, n, MPI_BYTE, &st)
                            : MPI_File_read_at(fh, off, buf, n, MPI_BYTE, &st);
        }
        if (!o->collective) {
            *name = is_write ? "MPI_File_iwrite_at" : "MPI_File_iread_at";
            return is_write ? MPI_File_iwrite_at(fh, off, buf, n, MPI_BYTE, req)
                            : MPI_File_iread_at(fh, off, buf, n, MPI_BYTE, req);
        }
        if (o->nonblocking) {
            *name = is_write ? "MPI_File_iwrite_at_all" : "MPI_File_iread_at_all";
            return is_write ? MPI_File_iwrite_at_all(fh, off, buf, n, MPI_BYTE, req)
                            : MPI_File_iread_at_all(fh, off, buf, n, MPI_BYTE, req);
        }
        if (o->split) {
            *name = is_write ? "MPI_File_write_at_all_begin" : "MPI_File_read_at_all_begin";
            rc = is_write ? MPI_File_write_at_all_begin(fh, off, buf, n, MPI_BYTE)
                          : MPI_File_read_at_all_begin(fh, off, buf, n, MPI_BYTE);
            if (rc != MPI_SUCCESS)
                return rc;
            *name = is_write ? "MPI_File_write_at_all_end" : "MPI_File_read_at_all_end";
            return is_write ? MPI_File_write_at_all_end(fh, buf, &st)
                            : MPI_File_read_at_all_end(fh, buf, &st);
        }
        *name = is_write ? "MPI_File_write_at_all" : "MPI_File_read_at_all";
        return is_write ? MPI_File_write_at_all(fh, off, buf, n, MPI_BYTE, &st)
                        : MPI_File_read_at_all(fh, off, buf, n, MPI_BYTE, &st);

    case API_INDIVIDUAL:
        /* Seek before every call so the position never depends on when a nonblocking call
         * advanced the individual pointer. */
        *name = "MPI_File_seek";
        rc = MPI_File_seek(fh, off, MPI_SEEK_SET);
        if (rc != MPI_SUCCESS)
            return rc;
        if (!o->collective && !o->nonblocking) {
            *name = is_write ? "MPI_File_write" : "MPI_File_read";
            return is_write ? MPI_File_write(fh, buf, n, MPI_BYTE, &st)
                            : MPI_File_read(fh, buf, n, MPI_BYTE, &st);
        }
        if (!o->collective) {
            *name = is_write ? "MPI_File_iwrite" : "MPI_File_iread";
            return is_write ? MPI_File_iwrite(fh, buf, n, MPI_BYTE, req)
                            : MPI_File_iread(fh, buf, n, MPI_BYTE, req);
        }
        if (o->nonblocking) {
            *name = is_write ? "MPI_File_iwrite_all" : "MPI_File_iread_all";
            return is_write ? MPI_File_iwrite_all(fh, buf, n, MPI_BYTE, req)
                            : MPI_File_iread_all(fh, buf, n, MPI_BYTE, req);
        }
        if (o->split) {
            *name = is_write ? "MPI_File_write_all_begin" : "MPI_File_read_all_begin";
            rc = is_write ? MPI_File_write_all_begin(fh, buf, n, MPI_BYTE)
                          : MPI_File_read_all_begin(fh, buf, n, MPI_BYTE);
            if (rc != MPI_SUCCESS)
                return rc;
            *name = is_write ? "MPI_File_write_all_end" : "MPI_File_read_all_end";
            return is_write ? MPI_File_write_all_end(fh, buf, &st)
                            : MPI_File_read_all_end(fh, buf, &st);
        }
        *name = is_write ? "MPI_File_write_all" : "MPI_File_read_all";
        return is_write ? MPI_File_write_all(fh, buf, n, MPI_BYTE, &st)
                        : MPI_File_read_all(fh, buf, n, MPI_BYTE, &st);

    case API_SHARED:
        if (o->nonblocking) {
            *name = is_write ? "MPI_File_iwrite_shared" : "MPI_File_iread_shared";
            return is_write ? MPI_File_iwrite_shared(fh, buf, n, MPI_BYTE, req)
                            : MPI_File_iread_shared(fh, buf, n, MPI_BYTE, req);
        }
        *name = is_write ? "MPI_File_write_shared" : "MPI_File_read_shared";
        return is_write ? MPI_File_write_shared(fh, buf, n, MPI_BYTE, &st)
                        : MPI_File_read_shared(fh, buf, n, MPI_BYTE, &st);

    default: /* API_ORDERED */
        if (o->split) {
            *name = is_write ? "MPI_File_write_ordered_begin" : "MPI_File_read_ordered_begin";
            rc = is_write ? MPI_File_write_ordered_begin(fh, buf, n, MPI_BYTE)
                          : MPI_File_read_ordered_begin(fh, buf, n, MPI_BYTE);
            if (rc != MPI_SUCCESS)
                return rc;
            *name = is_write ? "MPI_File_write_ordered_end" : "MPI_File_read_ordered_end";
            return is_write ? MPI_File_write_ordered_end(fh, buf, &st)
                            : MPI_File_read_ordered_end(fh, buf, &st);
        }
        *name = is_write ? "MPI_File_write_ordered" : "MPI_File_read_ordered";
        return is_write ? MPI_File_write_ordered(fh, buf, n, MPI_BYTE, &st)
                        : MPI_File_read_ordered(fh, buf, n, MPI_BYTE, &st);
    }
}

static void print_info(MPI_File fh, struct failure *f) {
    MPI_Info info;
    int nkeys, rc;
    rc = MPI_File_get_info(fh, &info);
    note(f, rc, "MPI_File_get_info");
    if (rc != MPI_SUCCESS)
        return;
    MPI_Info_get_nkeys(info, &nkeys);
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        char value[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        MPI_Info_get_nthkey(info, i, key);
#if MPI_VERSION >= 4
        /* MPI_Info_get is deprecated from MPI 4.0 on. */
        int buflen = (int)sizeof value;
        MPI_Info_get_string(info, key, &buflen, value, &flag);
#else
        MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
#endif
        if (flag)
            printf("info %s=%s\n", key, value);
    }
    fflush(stdout);
    MPI_Info_free(&info);
}

static MPI_Info make_hints(const struct options *o) {
    MPI_Info info = MPI_INFO_NULL;
    if (o->nhints == 0)
        return info; /* what an application without hints passes */
    MPI_Info_create(&info);
    for (int i = 0; i < o->nhints; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        const char *eq = strchr(o->hints[i], '=');
        size_t n = (size_t)(eq - o->hints[i]);
        memcpy(key, o->hints[i], n);
        key[n] = '\0';
        MPI_Info_set(info, key, eq + 1);
    }
    return info;
}

/* Sets the file view the API and layout need (collective: every rank calls it). */
static int set_view(struct kernel *k, MPI_File fh) {
    const struct options *o = k->o;
    if (!o->strided)
        return MPI_SUCCESS; /* contiguous: the default byte view, positions by offset/seek */
    int shared = o->api == API_SHARED || o->api == API_ORDERED;
    MPI_Datatype block, filetype;
    MPI_Type_contiguous((int)o->block, MPI_BYTE, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)(shared ? k->unit : k->W * k->unit), &filetype);
    MPI_Type_commit(&filetype);
    MPI_Type_free(&block);
    MPI_Offset disp = shared ? 0 : (MPI_Offset)(k->w * k->unit);
    int rc = MPI_File_set_view(fh, disp, MPI_BYTE, filetype, "native", MPI_INFO_NULL);
    MPI_Type_free(&filetype);
    return rc;
}

/*
 * Turn-taking for write_shared/read_shared: the writers form a ring; step s (one call of one
 * repetition) of writer w waits for writer w-1's step s (or writer W-1's step s-1).
 */
static void token_wait(const struct kernel *k, long long step) {
    if (k->o->api != API_SHARED || k->W < 2 || (step == 0 && k->w == 0))
        return;
    int t;
    MPI_Recv(&t, 1, MPI_INT, (int)((k->w + k->W - 1) % k->W), TOKEN_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
}

static void token_pass(const struct kernel *k, long long step) {
    long long last = k->o->repeat * k->o->calls - 1;
    if (k->o->api != API_SHARED || k->W < 2 || (step == last && k->w == k->W - 1))
        return;
    int t = 0;
    MPI_Send(&t, 1, MPI_INT, (int)((k->w + 1) % k->W), TOKEN_TAG, MPI_COMM_WORLD);
}

/* Bandwidth in MiB/s; 0 for a time too short to measure. */
static double mib_per_s(long long bytes, double seconds) {
    return seconds > 0 ? (double)bytes / seconds / 1048576.0 : 0.0;
}

/*
 * One phase: open, accesses, sync, close. Returns 0 on success, 1 on failure (already
 * reported). Prints the result line on rank 0.
 */
static int run_phase(struct kernel *k, int is_write, MPI_Info hints) {
    const struct options *o = k->o;
    MPI_File fh = MPI_FILE_NULL;
    MPI_Request *reqs = k->reqs;
    const char *name = "";
    int rc;

    k->fail.code = MPI_SUCCESS;
    k->bad_offset = LLONG_MAX;
    if (k->writer && k->hold_all)
        for (long long p = 0; p < o->repeat; p++)
            touch_repetition(k, p, is_write ? FILL_DATA : FILL_WRONG);

    /* phase[0..2]: open, data, close seconds of this rank; phase[3]: open to close. */
    double phase[4] = {0.0, 0.0, 0.0, 0.0}, t;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int amode = is_write ? (MPI_MODE_CREATE | MPI_MODE_WRONLY) : MPI_MODE_RDONLY;
    rc = MPI_File_open(MPI_COMM_WORLD, o->file, amode, hints, &fh);
    phase[0] = MPI_Wtime() - t0;
    note(&k->fail, rc, "MPI_File_open");
    /* Agree on the open: a rank whose open failed must not wait in collectives alone. */
    int open_failed = rc != MPI_SUCCESS, any_open_failed;
    MPI_Allreduce(&open_failed, &any_open_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any_open_failed) {
        if (o->print_info && k->rank == 0)
            print_info(fh, &k->fail);
        t = MPI_Wtime();
        note(&k->fail, set_view(k, fh), "MPI_File_set_view");
        phase[0] += MPI_Wtime() - t;
        /* After an error a rank goes on with the same sequence of calls, so collectives stay
         * matched and every rank reaches close and MPI_Finalize; the first error is kept. */
        for (long long p = 0; k->writer && p < o->repeat; p++) {
            if (!k->hold_all) {
                touch_repetition(k, p, is_write ? FILL_DATA : FILL_WRONG);
                if (o->collective)
                    MPI_Barrier(MPI_COMM_WORLD); /* see Timing at the top */
            }
            t = MPI_Wtime();
            for (long long c = 0; c < o->calls; c++) {
                long long step = p * o->calls + c;
                MPI_Request req;
                token_wait(k, step);
                note(&k->fail, access_call(k, fh, is_write, p, c, &req, &name), name);
                if (o->api == API_SHARED && o->nonblocking) {
                    /* complete before passing the turn, so the next position is settled */
                    note(&k->fail, MPI_Wait(&req, MPI_STATUS_IGNORE), "MPI_Wait");
                } else if (o->nonblocking) {
                    reqs[c] = req;
                }
                token_pass(k, step);
            }
            if (o->nonblocking && o->api != API_SHARED)
                note(&k->fail, MPI_Waitall((int)o->calls, reqs, MPI_STATUSES_IGNORE),
                     "MPI_Waitall");
            phase[1] += MPI_Wtime() - t;
            if (!k->hold_all && !is_write)
                touch_repetition(k, p, VERIFY);
        }
        t = MPI_Wtime();
        if (is_write && o->sync)
            note(&k->fail, MPI_File_sync(fh), "MPI_File_sync");
        phase[1] += MPI_Wtime() - t;
        t = MPI_Wtime();
        note(&k->fail, MPI_File_close(&fh), "MPI_File_close");
        phase[2] = MPI_Wtime() - t;
    } else if (fh != MPI_FILE_NULL) {
        MPI_File_close(&fh);
    }
    phase[3] = MPI_Wtime() - t0;
    if (k->writer && k->hold_all && !is_write && !any_open_failed)
        for (long long p = 0; p < o->repeat; p++)
            touch_repetition(k, p, VERIFY);

    /* Who reports: the lowest failing rank, so a failure shared by all prints once. */
    long long local[2] = {k->fail.code != MPI_SUCCESS ? k->rank : k->nprocs, k->bad_offset};
    long long global[2];
    double slowest[4];
    MPI_Allreduce(local, global, 2, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Reduce(phase, slowest, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (global[0] == k->rank) {
        char text[MPI_MAX_ERROR_STRING];
        error_text(k->fail.code, text);
        fprintf(stderr, "iokernel: %s failed: %s\n", k->fail.routine, text);
    }
    if (global[0] == k->nprocs && global[1] != LLONG_MAX && global[1] == k->bad_offset)
        fprintf(stderr,
                "iokernel: verification failed on rank %d: first bad byte at offset %lld "
                "(expected 0x%02x, read 0x%02x)\n",
                k->rank, k->bad_offset, k->bad_want, k->bad_got);
    if (global[0] != k->nprocs || global[1] != LLONG_MAX)
        return 1;
    if (k->rank == 0) {
        long long bytes = k->W * o->size * o->repeat;
        printf("iokernel: %s%s%sop=%s bytes=%lld seconds=%.6f bandwidth_mib_s=%.3f calls=%lld "
               "open_s=%.6f data_s=%.6f close_s=%.6f data_mib_s=%.3f\n",
               k->id ? "id=" : "", k->id ? k->id : "", k->id ? " " : "",
               is_write ? "write" : "read", bytes, slowest[3], mib_per_s(bytes, slowest[3]),
               o->repeat * o->calls, slowest[0], slowest[1], slowest[2],
               mib_per_s(bytes, slowest[1]));
        fflush(stdout);
    }
    return 0;
}

/* --expect-missing: 0 if opening read-only failed (as expected), 1 otherwise. */
static int expect_missing(const struct options *o, int rank, MPI_Info hints) {
    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(MPI_COMM_WORLD, o->file, MPI_MODE_RDONLY, hints, &fh);
    int opened = rc == MPI_SUCCESS, any_opened;
    MPI_Allreduce(&opened, &any_opened, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (opened)
        MPI_File_close(&fh);
    if (any_opened) {
        if (rank == 0)
            fprintf(stderr, "iokernel: --expect-missing: %s opened, but it should not exist\n",
                    o->file);
        return 1;
    }
    if (rank == 0) {
        char text[MPI_MAX_ERROR_STRING];
        int cls;
        MPI_Error_class(rc, &cls);
        /* The text of the class, not of the code: MPICH's text for the code carries an error
         * stack with the call's arguments (handle addresses, the info object), which differs
         * from run to run and between runs with and without the interposer. */
        error_text(cls, text);
        printf("open-error class=%d string=%s\n", cls, text);
        fflush(stdout);
    }
    return 0;
}

/*
 * Reads the plan on rank 0 and shares it, so every rank walks the same lines. Returns the
 * text (malloc'd, NUL-terminated) or NULL after printing why.
 */
static char *read_plan(const struct options *o, int rank) {
    long long len = -1;
    char *text = NULL;
    if (rank == 0) {
        FILE *fp = fopen(o->plan, "rb");
        if (fp && fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 &&
            fseek(fp, 0, SEEK_SET) == 0 && (text = malloc((size_t)len + 1)) != NULL &&
            fread(text, 1, (size_t)len, fp) == (size_t)len) {
            text[len] = '\0';
        } else {
            fprintf(stderr, "iokernel: cannot read the plan %s: %s\n", o->plan, strerror(errno));
            free(text);
            text = NULL;
            len = -1;
        }
        if (fp)
            fclose(fp);
    }
    MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (len < 0 || len > INT_MAX)
        return NULL;
    if (rank != 0)
        text = malloc((size_t)len + 1);
    int missing = text == NULL, any;
    MPI_Allreduce(&missing, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        free(text);
        return NULL;
    }
    MPI_Bcast(text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    text[len] = '\0';
    return text;
}

/*
 * --plan: one measurement per line, "ID KEY=VALUE ...". A write goes to a new file (the old
 * one is deleted first, outside the timed window), so every configuration pays the same
 * allocation; a plan of reads first writes the file once, untimed and without hints.
 */
static int run_plan(struct kernel *k, MPI_Info base) {
    const struct options *o = k->o;
    char *text = read_plan(o, k->rank);
    if (text == NULL)
        return 1;
    int status = 0;
    if (!(o->op & OP_WRITE)) {
        k->id = "prepare";
        status = run_phase(k, 1, MPI_INFO_NULL);
    }
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && status == 0;
         line = strtok_r(NULL, "\n", &save)) {
        char *words = NULL;
        char *id = strtok_r(line, " \t\r", &words);
        if (id == NULL || id[0] == '#')
            continue;
        MPI_Info hints = MPI_INFO_NULL;
        if (base != MPI_INFO_NULL)
            MPI_Info_dup(base, &hints);
        for (char *kv = strtok_r(NULL, " \t\r", &words); kv; kv = strtok_r(NULL, " \t\r", &words)) {
            char *eq = strchr(kv, '=');
            if (eq == NULL || eq == kv || eq - kv > MPI_MAX_INFO_KEY) {
                if (k->rank == 0)
                    fprintf(stderr, "iokernel: plan line %s: expected KEY=VALUE, got '%s'\n", id,
                            kv);
                status = 2;
                break;
            }
            *eq = '\0';
            if (hints == MPI_INFO_NULL)
                MPI_Info_create(&hints);
            MPI_Info_set(hints, kv, eq + 1);
        }
        k->id = id;
        if (status == 0 && (o->op & OP_WRITE)) {
            if (k->rank == 0)
                MPI_File_delete(o->file, MPI_INFO_NULL); /* absent the first time: fine */
            MPI_Barrier(MPI_COMM_WORLD);
            status = run_phase(k, 1, hints);
        }
        if (status == 0 && (o->op & OP_READ))
            status = run_phase(k, 0, hints);
        if (hints != MPI_INFO_NULL)
            MPI_Info_free(&hints);
    }
    k->id = NULL;
    free(text);
    return status;
}

int main(int argc, char **argv) {
    struct options o;
    struct kernel k;
    char msg[512];
    int status;

    MPI_Init(&argc, &argv);
    memset(&k, 0, sizeof k);
    MPI_Comm_rank(MPI_COMM_WORLD, &k.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &k.nprocs);

    int verdict = parse_options(argc, argv, &o, msg, sizeof msg);
    if (verdict != 0) {
        if (k.rank == 0) {
            if (verdict == 1)
                fputs(usage_text, stdout);
            else
                fprintf(stderr, "%s\n", msg);
        }
        free(o.hints);
        MPI_Finalize();
        return verdict == 1 ? 0 : 2;
    }
    MPI_Info hints = make_hints(&o);

    if (o.expect_missing) {
        status = expect_missing(&o, k.rank, hints);
        goto done;
    }

    k.o = &o;
    k.W = o.root_only ? 1 : k.nprocs;
    k.w = o.root_only ? 0 : k.rank;
    k.writer = !o.root_only || k.rank == 0;
    k.unit = o.block;
    if (o.strided) {
        k.unit = (long long)((double)o.block / o.fill + 0.5); /* nearest; no libm needed */
        if (k.unit < o.block)
            k.unit = o.block;
    }
    long long units = o.strided ? o.size / o.block : o.size;
    long long unit_bytes = o.strided ? o.block : 1;
    k.len = malloc((size_t)o.calls * sizeof *k.len);
    k.before = malloc((size_t)o.calls * sizeof *k.before);
    k.reqs = malloc((size_t)o.calls * sizeof *k.reqs);
    k.hold_all = o.size * o.repeat <= HOLD_ALL_LIMIT;
    long long held = k.hold_all ? o.size * o.repeat : o.size;
    k.buf = k.writer ? malloc((size_t)held) : NULL;
    int no_memory =
            k.len == NULL || k.before == NULL || k.reqs == NULL || (k.writer && k.buf == NULL),
        any;
    MPI_Allreduce(&no_memory, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        if (no_memory)
            fprintf(stderr, "iokernel: rank %d could not allocate %lld bytes of buffer\n", k.rank,
                    held);
        status = 1;
        goto done;
    }
    for (long long c = 0, sum = 0; c < o.calls; c++) {
        k.len[c] = (units / o.calls + (c < units % o.calls)) * unit_bytes;
        k.before[c] = sum;
        sum += k.len[c];
    }

    status = 0;
    if (o.plan) {
        status = run_plan(&k, hints);
    } else {
        if (o.op & OP_WRITE)
            status = run_phase(&k, 1, hints);
        if (status == 0 && (o.op & OP_READ))
            status = run_phase(&k, 0, hints);
    }
    if (o.delete_file) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (k.rank == 0) {
            int rc = MPI_File_delete(o.file, MPI_INFO_NULL);
            if (rc != MPI_SUCCESS) {
                char text[MPI_MAX_ERROR_STRING];
                error_text(rc, text);
                fprintf(stderr, "iokernel: MPI_File_delete failed: %s\n", text);
                status = 1;
            }
        }
    }

done:
    /* Every rank exits with the same code, whichever rank saw the problem. */
    MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (hints != MPI_INFO_NULL)
        MPI_Info_free(&hints);
    free(k.buf);
    free(k.len);
    free(k.before);
    free(k.reqs);
    free(o.hints);
    MPI_Finalize();
    return status;
}
