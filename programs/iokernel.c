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
 * Memory. --memory-block B makes each call take its data from (write) or put it into (read)
 * noncontiguous memory: pieces of B bytes with a hole of B bytes after each, passed as one
 * MPI_Type_vector of bytes, as a program that writes one field of an array of records
 * does. The bytes the file gets are the same as without it.
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
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

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
    long long memory_block; /* 0: contiguous memory */
    long long calls;
    long long repeat;
    int nonblocking;
    int split;
    int root_only;
    int sync;
    int print_info;
    int print_io;
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
    const struct routine *routine; /* the MPI routines of this run's data access */
    int seek;                      /* MPI_File_seek before each access (struct api_routines) */
    int rank, nprocs;
    int writer;        /* this rank moves data */
    long long W, w;    /* number of writers, this rank's index among them */
    long long unit;    /* strided: slot size in bytes */
    long long *len;    /* bytes per call, per writer */
    long long *before; /* bytes of the calls before call c */
    MPI_Request *reqs; /* --nonblocking: the requests of one repetition */
    /* and their statuses: a real array, not MPI_STATUSES_IGNORE, because MPICH 4.0's
     * header declares MPI_Waitall's statuses as written, and gcc 12 then rejects the
     * ignore constant (-Werror=stringop-overflow). */
    MPI_Status *statuses;
    int hold_all;
    unsigned char *buf;
    unsigned char *spread;  /* --memory-block: the data of buf in pieces with holes */
    MPI_Datatype *memtypes; /* --memory-block: each call's memory datatype */
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
    "  --memory-block BYTES          take each call's data from noncontiguous memory:\n"
    "                                pieces of BYTES, each followed by as large a hole\n"
    "  --calls N                     calls per rank per repetition (default 1)\n"
    "  --repeat N                    repetitions (segments) per open, each a new region\n"
    "                                (default 1)\n"
    "  --nonblocking                 use the i* routines and MPI_Wait/MPI_Waitall\n"
    "  --split                       use split collectives (begin/end)\n"
    "  --writers all|root            root: only rank 0 does (independent) I/O\n"
    "  --hint KEY=VALUE              hint passed to MPI_File_open (repeatable)\n"
    "  --no-sync                     skip MPI_File_sync before close\n"
    "  --print-info                  rank 0 prints MPI_File_get_info after each open\n"
    "  --print-io                    rank 0 prints the bytes each rank's process wrote and\n"
    "                                read between open and close (Linux /proc/self/io):\n"
    "                                which ranks touched the file, whatever MPI reports\n"
    "  --expect-missing              expect opening PATH read-only to fail\n"
    "  --delete                      MPI_File_delete PATH at the end\n"
    "  --plan FILE                   one measurement per line: ID [KEY=VALUE ...] (hints\n"
    "                                added to --hint); writes go to a new file each time\n";

static unsigned char pattern_byte(long long offset) {
    uint64_t o = (uint64_t)offset;
    return (unsigned char)((o * 131u + 7u) ^ (o >> 9));
}

/* ---- the data access routines ---------------------------------------------------------- */

/*
 * How a routine is called: with an explicit offset (AT) or at a file pointer (PTR); blocking,
 * nonblocking (NB: it leaves a request) or the begin of a split collective (BEGIN: the
 * matching end routine follows at once).
 */
enum form { AT, AT_NB, AT_BEGIN, PTR, PTR_NB, PTR_BEGIN };

/* MPI's write routines take a const buffer and its read routines a plain one, so each
 * direction has its own function types; an entry sets the member of its form. */
union read_routine {
    int (*at)(MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Status *);
    int (*at_nb)(MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Request *);
    int (*at_begin)(MPI_File, MPI_Offset, void *, int, MPI_Datatype);
    int (*ptr)(MPI_File, void *, int, MPI_Datatype, MPI_Status *);
    int (*ptr_nb)(MPI_File, void *, int, MPI_Datatype, MPI_Request *);
    int (*ptr_begin)(MPI_File, void *, int, MPI_Datatype);
};
union write_routine {
    int (*at)(MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Status *);
    int (*at_nb)(MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Request *);
    int (*at_begin)(MPI_File, MPI_Offset, const void *, int, MPI_Datatype);
    int (*ptr)(MPI_File, const void *, int, MPI_Datatype, MPI_Status *);
    int (*ptr_nb)(MPI_File, const void *, int, MPI_Datatype, MPI_Request *);
    int (*ptr_begin)(MPI_File, const void *, int, MPI_Datatype);
};

/* The MPI routines of one kind of access, reading ([0]) and writing ([1]). */
struct routine {
    const char *name[2]; /* as MPI names them: what a failure report shows */
    enum form form;
    union read_routine read;
    union write_routine write;
    /* BEGIN forms: the routines that complete the access */
    const char *end_name[2];
    int (*read_end)(MPI_File, void *, MPI_Status *);
    int (*write_end)(MPI_File, const void *, MPI_Status *);
};

/* The kinds of access --pattern, --nonblocking and --split choose between. */
enum mode { INDEPENDENT, INDEPENDENT_NB, COLLECTIVE, COLLECTIVE_NB, COLLECTIVE_SPLIT, NMODES };

/* The routines of one --api, by mode. A mode without an entry (name NULL) has no MPI routine
 * with that API; parse_options rejects it, saying why. */
struct api_routines {
    int seek; /* individual file pointer: MPI_File_seek to the offset before each call */
    struct routine by_mode[NMODES];
};

/* An entry names each routine once, so the name a failure report shows is the name of the
 * routine that was called. */
#define ROUTINE(form_, member, r, w)                                                               \
    {.name = {#r, #w}, .form = form_, .read.member = r, .write.member = w}
#define SPLIT(form_, member, r, w)                                                                 \
    {.name = {#r "_begin", #w "_begin"},                                                           \
     .form = form_,                                                                                \
     .read.member = r##_begin,                                                                     \
     .write.member = w##_begin,                                                                    \
     .end_name = {#r "_end", #w "_end"},                                                           \
     .read_end = r##_end,                                                                          \
     .write_end = w##_end}

/* By --api (API_*). */
static const struct api_routines api_routines[] = {
    [API_EXPLICIT] =
        {.by_mode =
             {
                 [INDEPENDENT] = ROUTINE(AT, at, MPI_File_read_at, MPI_File_write_at),
                 [INDEPENDENT_NB] = ROUTINE(AT_NB, at_nb, MPI_File_iread_at, MPI_File_iwrite_at),
                 [COLLECTIVE] = ROUTINE(AT, at, MPI_File_read_at_all, MPI_File_write_at_all),
                 [COLLECTIVE_NB] =
                     ROUTINE(AT_NB, at_nb, MPI_File_iread_at_all, MPI_File_iwrite_at_all),
                 [COLLECTIVE_SPLIT] =
                     SPLIT(AT_BEGIN, at_begin, MPI_File_read_at_all, MPI_File_write_at_all),
             }},
    /* A seek before every call, so a position never depends on when a nonblocking call
     * advanced the individual pointer. */
    [API_INDIVIDUAL] =
        {.seek = 1,
         .by_mode =
             {
                 [INDEPENDENT] = ROUTINE(PTR, ptr, MPI_File_read, MPI_File_write),
                 [INDEPENDENT_NB] = ROUTINE(PTR_NB, ptr_nb, MPI_File_iread, MPI_File_iwrite),
                 [COLLECTIVE] = ROUTINE(PTR, ptr, MPI_File_read_all, MPI_File_write_all),
                 [COLLECTIVE_NB] = ROUTINE(PTR_NB, ptr_nb, MPI_File_iread_all, MPI_File_iwrite_all),
                 [COLLECTIVE_SPLIT] =
                     SPLIT(PTR_BEGIN, ptr_begin, MPI_File_read_all, MPI_File_write_all),
             }},
    [API_SHARED] =
        {.by_mode =
             {
                 [INDEPENDENT] = ROUTINE(PTR, ptr, MPI_File_read_shared, MPI_File_write_shared),
                 [INDEPENDENT_NB] =
                     ROUTINE(PTR_NB, ptr_nb, MPI_File_iread_shared, MPI_File_iwrite_shared),
             }},
    [API_ORDERED] =
        {.by_mode =
             {
                 [COLLECTIVE] = ROUTINE(PTR, ptr, MPI_File_read_ordered, MPI_File_write_ordered),
                 [COLLECTIVE_SPLIT] =
                     SPLIT(PTR_BEGIN, ptr_begin, MPI_File_read_ordered, MPI_File_write_ordered),
             }},
};

#undef ROUTINE
#undef SPLIT

/* The mode the options ask for (a valid one once parse_options has checked them). */
static enum mode access_mode(const struct options *o) {
    if (!o->collective)
        return o->nonblocking ? INDEPENDENT_NB : INDEPENDENT;
    return o->nonblocking ? COLLECTIVE_NB : o->split ? COLLECTIVE_SPLIT : COLLECTIVE;
}

/* ---- options ------------------------------------------------------------------------- */

/* How an option's value is read and checked, and so whether it takes one. */
enum option_kind {
    OPT_FLAG,     /* no value: *flag becomes value */
    OPT_HELP,     /* no value: print the usage and stop */
    OPT_CHOICE,   /* one of choices: *flag becomes the word's value */
    OPT_BYTES,    /* a byte count (parse_bytes, args.h) of at most max: goes to *number */
    OPT_COUNT,    /* a positive integer (parse_count, args.h): goes to *number */
    OPT_FRACTION, /* a number in (0, 1]: goes to *real */
    OPT_PATH,     /* a non-empty path: goes to *text */
    OPT_TEXT,     /* any string, checked where it is used: goes to *text */
    OPT_HINT,     /* KEY=VALUE within MPI's limits on keys and values: added to o->hints */
};

struct choice {
    const char *word;
    int value;
};

/* One command-line option: its name, what it sets and how its value is checked. */
struct option_def {
    const char *name; /* without the leading "--" */
    enum option_kind kind;
    int *flag;                    /* FLAG, CHOICE */
    int value;                    /* FLAG */
    const struct choice *choices; /* CHOICE: ended by {NULL, 0} */
    long long *number;            /* BYTES, COUNT */
    long long max;                /* BYTES */
    double *real;                 /* FRACTION */
    const char **text;            /* PATH, TEXT */
    int *given;                   /* if set: becomes 1 once the option appears */
    const char *expected;         /* BYTES, COUNT, FRACTION, HINT: what the value must be */
};

/* getopt_long's value for table entry i: above every character, so never '?' or ':'. */
enum { OPTION_VAL = 256 };

/* Whether option d takes a value (getopt_long's required_argument). */
static int takes_value(const struct option_def *d) {
    return d->kind != OPT_FLAG && d->kind != OPT_HELP;
}

/* The entry named exactly by the n characters at name, or NULL. */
static const struct option_def *find_option(const struct option_def *table, int count,
                                            const char *name, size_t n) {
    for (int i = 0; i < count; i++)
        if (strlen(table[i].name) == n && strncmp(table[i].name, name, n) == 0)
            return &table[i];
    return NULL;
}

/* Writes the words of choices into out as "a, b or c" (truncated to len). */
static void list_words(const struct choice *choices, char *out, size_t len) {
    size_t used = 0;
    out[0] = '\0';
    for (const struct choice *c = choices; c->word != NULL; c++) {
        const char *sep = c == choices ? "" : c[1].word != NULL ? ", " : " or ";
        int n = snprintf(out + used, len - used, "%s%s", sep, c->word);
        if (n < 0 || (size_t)n >= len - used)
            return;
        used += (size_t)n;
    }
}

/* A number in (0, 1] in strtod's syntax, nothing else around it; 0 or -1 (args.h's
 * contract). */
static int parse_fraction(const char *s, double *out) {
    char *end;
    errno = 0;
    double f = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(f) || !(f > 0.0) || f > 1.0)
        return -1;
    *out = f;
    return 0;
}

/* Whether s is KEY=VALUE with a non-empty key and both within MPI's limits. */
static int valid_hint(const char *s) {
    const char *eq = strchr(s, '=');
    return eq != NULL && eq != s && (size_t)(eq - s) <= MPI_MAX_INFO_KEY &&
           strlen(eq + 1) <= MPI_MAX_INFO_VAL;
}

/*
 * Checks value (NULL for options without one) against entry d and stores it where d says.
 * Returns 0, 1 for --help, or 2 after writing "iokernel: --NAME must be EXPECTED, got
 * 'VALUE'" (or, for a path, why it is not one) into msg.
 */
static int apply_option(const struct option_def *d, const char *value, struct options *o, char *msg,
                        size_t msglen) {
    char words[128];
    const char *expected = d->expected;
    long long bytes;
    int ok = 1;
    switch (d->kind) {
    case OPT_FLAG:
        *d->flag = d->value;
        break;
    case OPT_HELP:
        return 1;
    case OPT_CHOICE:
        ok = 0;
        for (const struct choice *c = d->choices; !ok && c->word != NULL; c++)
            if (strcmp(value, c->word) == 0) {
                *d->flag = c->value;
                ok = 1;
            }
        list_words(d->choices, words, sizeof words);
        expected = words;
        break;
    case OPT_BYTES:
        ok = parse_bytes(value, &bytes) == 0 && bytes <= d->max;
        if (ok)
            *d->number = bytes;
        break;
    case OPT_COUNT:
        ok = parse_count(value, d->number) == 0;
        break;
    case OPT_FRACTION:
        ok = parse_fraction(value, d->real) == 0;
        break;
    case OPT_PATH:
        if (*value == '\0') {
            snprintf(msg, msglen, "iokernel: --%s needs a path, got an empty string", d->name);
            return 2;
        }
        *d->text = value;
        break;
    case OPT_TEXT:
        *d->text = value;
        break;
    case OPT_HINT:
        ok = valid_hint(value);
        if (ok)
            o->hints[o->nhints++] = value; /* o->hints has room for every argument */
        break;
    }
    if (!ok) {
        snprintf(msg, msglen, "iokernel: --%s must be %s, got '%s'", d->name, expected, value);
        return 2;
    }
    if (d->given != NULL)
        *d->given = 1;
    return 0;
}

/*
 * Reads argv into o with getopt_long, by table (longopts: the same options in getopt_long's
 * form, entry i with value OPTION_VAL + i). Every argument must be an option named in full:
 * "--NAME", "--NAME VALUE" or "--NAME=VALUE". Returns 0, 1 for --help, or 2 after writing why
 * into msg.
 */
static int read_argv(int argc, char **argv, const struct option_def *table,
                     const struct option *longopts, int count, struct options *o, char *msg,
                     size_t msglen) {
    opterr = 0; /* the messages are ours, in our format */
    optind = 1;
    while (optind < argc) {
        const char *arg = argv[optind];
        /* Checked here, as getopt_long would read "-x" as short options, stop at "foo" or
         * end the options at "--", and take abbreviations such as "--rep" for --repeat. */
        if (strncmp(arg, "--", 2) != 0) {
            snprintf(msg, msglen, "iokernel: expected an option starting with --, got '%s'", arg);
            return 2;
        }
        size_t n = strcspn(arg + 2, "=");
        const struct option_def *d = find_option(table, count, arg + 2, n);
        if (d == NULL) {
            snprintf(msg, msglen, "iokernel: unknown option '%.*s' (see --help)", (int)(n + 2),
                     arg);
            return 2;
        }
        /* "+": argv stays in order; ":": getopt_long prints nothing for a missing value. */
        int got = getopt_long(argc, argv, "+:", longopts, NULL);
        if (got < OPTION_VAL || got >= OPTION_VAL + count) {
            /* d is known, so the error is the one d can have; no need to decode getopt's. */
            if (takes_value(d))
                snprintf(msg, msglen, "iokernel: --%s needs a value", d->name);
            else
                snprintf(msg, msglen, "iokernel: --%s takes no value, got '%s'", d->name,
                         arg + 2 + n + (arg[2 + n] == '='));
            return 2;
        }
        int verdict = apply_option(&table[got - OPTION_VAL], optarg, o, msg, msglen);
        if (verdict != 0)
            return verdict;
    }
    return 0;
}

/*
 * The checks between options: combinations MPI has no routine for or that contradict each
 * other, and the limits of the layout. Returns 0, or 2 after writing why into msg.
 */
static int check_combination(const struct options *o, int block_given, int fill_given, char *msg,
                             size_t msglen) {
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
    for (long long c = 0; o->memory_block > 0 && c < o->calls && c < 2; c++) {
        /* The calls have two sizes at most: the first ones one unit larger. */
        long long length =
            (units / o->calls + (c < units % o->calls)) * (o->strided ? o->block : 1);
        if (length % o->memory_block != 0) {
            snprintf(msg, msglen,
                     "iokernel: --memory-block must divide every call's bytes, got %lld for "
                     "calls of %lld bytes",
                     o->memory_block, length);
            return 2;
        }
    }
    if (o->size > LLONG_MAX / o->repeat / 2) {
        snprintf(msg, msglen, "iokernel: --size times --repeat is too large");
        return 2;
    }
    /* Each combination the checks above let through has its routine; this keeps it so. */
    if (api_routines[o->api].by_mode[access_mode(o)].name[0] == NULL) {
        snprintf(msg, msglen,
                 "iokernel: MPI has no routine for this combination of --api, --pattern, "
                 "--nonblocking and --split");
        return 2;
    }
    return 0;
}

/*
 * Fills o from argv. On a bad command line writes a message to msg and returns 2; returns 1
 * for --help (usage goes to stdout), 0 otherwise. Every rank parses the same argv, so every
 * rank reaches the same verdict without communicating.
 */
static int parse_options(int argc, char **argv, struct options *o, char *msg, size_t msglen) {
    static const struct choice ops[] = {
        {"write", OP_WRITE}, {"read", OP_READ}, {"both", OP_BOTH}, {NULL, 0}};
    static const struct choice patterns[] = {{"collective", 1}, {"independent", 0}, {NULL, 0}};
    static const struct choice apis[] = {{"explicit", API_EXPLICIT},
                                         {"individual", API_INDIVIDUAL},
                                         {"shared", API_SHARED},
                                         {"ordered", API_ORDERED},
                                         {NULL, 0}};
    static const struct choice layouts[] = {{"contiguous", 0}, {"strided", 1}, {NULL, 0}};
    static const struct choice writers[] = {{"all", 0}, {"root", 1}, {NULL, 0}};
    int block_given = 0, fill_given = 0;
    char block_range[96], hint_form[128];

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
    snprintf(block_range, sizeof block_range, "a byte count from 1 to %d (k,m,g suffixes allowed)",
             INT_MAX);
    snprintf(hint_form, sizeof hint_form, "KEY=VALUE (key up to %d, value up to %d characters)",
             MPI_MAX_INFO_KEY, MPI_MAX_INFO_VAL);

    const struct option_def table[] = {
        {.name = "file", .kind = OPT_PATH, .text = &o->file},
        {.name = "op", .kind = OPT_CHOICE, .flag = &o->op, .choices = ops},
        {.name = "pattern", .kind = OPT_CHOICE, .flag = &o->collective, .choices = patterns},
        {.name = "api", .kind = OPT_CHOICE, .flag = &o->api, .choices = apis},
        {.name = "layout", .kind = OPT_CHOICE, .flag = &o->strided, .choices = layouts},
        {.name = "size",
         .kind = OPT_BYTES,
         .number = &o->size,
         .max = LLONG_MAX,
         .expected = "a positive byte count like 4096, 64k, 1m or 2g"},
        {.name = "block",
         .kind = OPT_BYTES,
         .number = &o->block,
         .max = INT_MAX, /* set_view's MPI_Type_contiguous takes an int count */
         .expected = block_range,
         .given = &block_given},
        {.name = "fill",
         .kind = OPT_FRACTION,
         .real = &o->fill,
         .expected = "a number in (0, 1]",
         .given = &fill_given},
        {.name = "memory-block",
         .kind = OPT_BYTES,
         .number = &o->memory_block,
         .max = INT_MAX / 2, /* a vector's stride, twice the block, is an int */
         .expected = "a positive byte count that divides every call's bytes"},
        {.name = "calls", .kind = OPT_COUNT, .number = &o->calls, .expected = "a positive integer"},
        {.name = "repeat",
         .kind = OPT_COUNT,
         .number = &o->repeat,
         .expected = "a positive integer"},
        {.name = "writers", .kind = OPT_CHOICE, .flag = &o->root_only, .choices = writers},
        {.name = "hint", .kind = OPT_HINT, .expected = hint_form},
        {.name = "plan", .kind = OPT_TEXT, .text = &o->plan},
        {.name = "nonblocking", .kind = OPT_FLAG, .flag = &o->nonblocking, .value = 1},
        {.name = "split", .kind = OPT_FLAG, .flag = &o->split, .value = 1},
        {.name = "no-sync", .kind = OPT_FLAG, .flag = &o->sync, .value = 0},
        {.name = "print-info", .kind = OPT_FLAG, .flag = &o->print_info, .value = 1},
        {.name = "print-io", .kind = OPT_FLAG, .flag = &o->print_io, .value = 1},
        {.name = "expect-missing", .kind = OPT_FLAG, .flag = &o->expect_missing, .value = 1},
        {.name = "delete", .kind = OPT_FLAG, .flag = &o->delete_file, .value = 1},
        {.name = "help", .kind = OPT_HELP},
    };
    enum { COUNT = sizeof table / sizeof table[0] };
    struct option longopts[COUNT + 1];
    for (int i = 0; i < COUNT; i++)
        longopts[i] =
            (struct option){table[i].name, takes_value(&table[i]) ? required_argument : no_argument,
                            NULL, OPTION_VAL + i};
    longopts[COUNT] = (struct option){NULL, 0, NULL, 0};

    int verdict = read_argv(argc, argv, table, longopts, COUNT, o, msg, msglen);
    if (verdict != 0)
        return verdict;
    if (o->file == NULL) {
        snprintf(msg, msglen, "iokernel: --file PATH is required (see --help)");
        return 2;
    }
    if (o->expect_missing)
        return 0; /* only the open matters; the access options are not used */
    return check_combination(o, block_given, fill_given, msg, msglen);
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

/* Where call c of repetition p takes its data from in memory: buf, or with --memory-block
 * the same bytes in pieces with holes, twice as far apart. */
static unsigned char *call_memory(const struct kernel *k, long long p, long long c) {
    if (!k->spread)
        return call_buffer(k, p, c);
    return k->spread + 2 * (call_buffer(k, p, c) - k->buf);
}

/* Copies repetition p's bytes between buf and the spread pieces (to_spread: buf to them). */
static void spread_repetition(struct kernel *k, long long p, int to_spread) {
    long long piece = k->o->memory_block;
    for (long long c = 0; k->spread && c < k->o->calls; c++) {
        unsigned char *packed = call_buffer(k, p, c), *spread = call_memory(k, p, c);
        for (long long j = 0; j < k->len[c]; j += piece) {
            if (to_spread)
                memcpy(spread + 2 * j, packed + j, (size_t)piece);
            else
                memcpy(packed + j, spread + 2 * j, (size_t)piece);
        }
    }
}

enum { FILL_DATA, FILL_WRONG, VERIFY };

/*
 * FILL_DATA writes the expected bytes of repetition p into the buffer, FILL_WRONG their
 * complement (so a byte a read did not deliver cannot pass), VERIFY compares and keeps the
 * lowest bad offset.
 */
static void touch_repetition(struct kernel *k, long long p, int mode) {
    const struct options *o = k->o;
    if (mode == VERIFY)
        spread_repetition(k, p, 0);
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
    if (mode != VERIFY)
        spread_repetition(k, p, 1);
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
 * Starts the access of routine r, reading (is_write 0) or writing (1) n bytes at buf: at view
 * offset off for the AT forms, at the file pointer otherwise. Blocking forms complete it,
 * NB forms leave their request in *req, BEGIN forms leave it to the end routine. Returns the
 * MPI result.
 */
static int start_access(const struct routine *r, int is_write, MPI_File fh, MPI_Offset off,
                        unsigned char *buf, int n, MPI_Datatype type, MPI_Request *req) {
    MPI_Status st;
    switch (r->form) {
    case AT:
        return is_write ? r->write.at(fh, off, buf, n, type, &st)
                        : r->read.at(fh, off, buf, n, type, &st);
    case AT_NB:
        return is_write ? r->write.at_nb(fh, off, buf, n, type, req)
                        : r->read.at_nb(fh, off, buf, n, type, req);
    case AT_BEGIN:
        return is_write ? r->write.at_begin(fh, off, buf, n, type)
                        : r->read.at_begin(fh, off, buf, n, type);
    case PTR:
        return is_write ? r->write.ptr(fh, buf, n, type, &st) : r->read.ptr(fh, buf, n, type, &st);
    case PTR_NB:
        return is_write ? r->write.ptr_nb(fh, buf, n, type, req)
                        : r->read.ptr_nb(fh, buf, n, type, req);
    case PTR_BEGIN:
        return is_write ? r->write.ptr_begin(fh, buf, n, type)
                        : r->read.ptr_begin(fh, buf, n, type);
    }
    return MPI_ERR_INTERN; /* not reached: the cases cover every form */
}

/*
 * One data access: call c of repetition p, reading (is_write 0) or writing (1), with this
 * run's routines (k->routine, after a seek if k->seek). Nonblocking routines leave their
 * request in *req (MPI_REQUEST_NULL otherwise). Returns the MPI result and names in *name the
 * routine that gave it.
 */
static int access_call(struct kernel *k, MPI_File fh, int is_write, long long p, long long c,
                       MPI_Request *req, const char **name) {
    const struct routine *r = k->routine;
    unsigned char *buf = call_memory(k, p, c);
    MPI_Offset off = view_offset(k, p, c);
    /* With --memory-block, one vector of the call's pieces. */
    int count = k->memtypes ? 1 : (int)k->len[c];
    MPI_Datatype type = k->memtypes ? k->memtypes[c] : MPI_BYTE;
    MPI_Status st;
    int rc;

    *req = MPI_REQUEST_NULL;
    if (k->seek) {
        *name = "MPI_File_seek";
        rc = MPI_File_seek(fh, off, MPI_SEEK_SET);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    *name = r->name[is_write];
    rc = start_access(r, is_write, fh, off, buf, count, type, req);
    if (rc != MPI_SUCCESS || r->end_name[is_write] == NULL)
        return rc;
    *name = r->end_name[is_write];
    return is_write ? r->write_end(fh, buf, &st) : r->read_end(fh, buf, &st);
}

/* The bytes this process passed to write and read system calls so far (wchar and rchar
 * of /proc/self/io), or -1 each where Linux's counters are not there. MPI moves data
 * between ranks of one host through shared memory, so between open and close these
 * count the file's data only: a behavioural check of which ranks did the I/O. */
static void process_io(long long counts[2]) {
    counts[0] = counts[1] = -1;
    FILE *io = fopen("/proc/self/io", "r");
    if (io == NULL)
        return;
    char line[128];
    while (fgets(line, sizeof line, io) != NULL) {
        long long value;
        if (sscanf(line, "wchar: %lld", &value) == 1)
            counts[0] = value;
        else if (sscanf(line, "rchar: %lld", &value) == 1)
            counts[1] = value;
    }
    fclose(io);
}

/* --print-io: rank 0 prints `io rank=R written=W read=B` for every rank. */
static void print_io(const struct kernel *k, const long long before[2]) {
    long long after[2], mine[2], *all = NULL;
    process_io(after);
    for (int i = 0; i < 2; i++)
        mine[i] = before[i] < 0 || after[i] < 0 ? -1 : after[i] - before[i];
    if (k->rank == 0)
        all = malloc(2 * (size_t)k->nprocs * sizeof *all);
    MPI_Gather(mine, 2, MPI_LONG_LONG, all, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (k->rank == 0 && all != NULL) {
        for (int r = 0; r < k->nprocs; r++)
            printf("io rank=%d written=%lld read=%lld\n", r, all[2 * r], all[2 * r + 1]);
        fflush(stdout);
    }
    free(all);
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
    long long io_before[2] = {-1, -1};
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
        process_io(io_before);
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
                note(&k->fail, MPI_Waitall((int)o->calls, reqs, k->statuses), "MPI_Waitall");
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
        if (o->print_io)
            print_io(k, io_before);
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
    k.routine = &api_routines[o.api].by_mode[access_mode(&o)];
    k.seek = api_routines[o.api].seek;
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
    k.statuses = malloc((size_t)o.calls * sizeof *k.statuses);
    k.hold_all = o.size * o.repeat <= HOLD_ALL_LIMIT;
    long long held = k.hold_all ? o.size * o.repeat : o.size;
    k.buf = k.writer ? malloc((size_t)held) : NULL;
    int no_memory = k.len == NULL || k.before == NULL || k.reqs == NULL || k.statuses == NULL ||
                    (k.writer && k.buf == NULL),
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
    if (o.memory_block > 0 && k.writer) {
        k.spread = malloc(2 * (size_t)held);
        k.memtypes = malloc((size_t)o.calls * sizeof *k.memtypes);
        no_memory = k.spread == NULL || k.memtypes == NULL;
        MPI_Allreduce(&no_memory, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (any) {
            if (no_memory)
                fprintf(stderr, "iokernel: rank %d could not allocate %lld bytes of buffer\n",
                        k.rank, 2 * held);
            status = 1;
            goto done;
        }
        memset(k.spread, 0, 2 * (size_t)held);
        for (long long c = 0; c < o.calls; c++) {
            MPI_Type_vector((int)(k.len[c] / o.memory_block), (int)o.memory_block,
                            (int)(2 * o.memory_block), MPI_BYTE, &k.memtypes[c]);
            MPI_Type_commit(&k.memtypes[c]);
        }
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
    for (long long c = 0; k.memtypes && c < o.calls; c++)
        MPI_Type_free(&k.memtypes[c]);
    free(k.memtypes);
    free(k.spread);
    free(k.buf);
    free(k.len);
    free(k.before);
    free(k.reqs);
    free(k.statuses);
    free(o.hints);
    MPI_Finalize();
    return status;
}
