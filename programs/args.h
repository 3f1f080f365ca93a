/*
 * args.h: the number parsers of the command lines of our MPI programs (programs/) and
 * benchmark programs (bench/), one definition for all of them. Header-only (static inline),
 * so every program stays one .c file that can be built alone with mpicc; bench/ sources
 * need -Iprograms (see the Makefile).
 *
 * Contract of every parser here:
 *   - s is the option's value as given on the command line (not NULL);
 *   - only plain decimal digits are taken, with nothing before them: no sign, no space, no
 *     "0x" (strtoll by itself would take " 12", "+12" and "-0"), and nothing after them
 *     but what the parser names;
 *   - on success the value goes to *out and the parser returns 0; otherwise it returns -1
 *     and *out keeps what it held (the option's default).
 * The parsers print nothing: the caller knows the option's name and its own limits, so the
 * caller reports, on rank 0, in the form
 *     "<program>: <option> must be <what it takes>, got '<s>'"
 * (or "<option> needs <what it takes>, got '<s>'") and exits with status 2.
 */
#ifndef IOTUNER_ARGS_H
#define IOTUNER_ARGS_H

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

/* A positive integer, 1 to LLONG_MAX, in decimal digits only: "1", "2000". */
static inline int parse_count(const char *s, long long *out) {
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1)
        return -1;
    *out = v;
    return 0;
}

/*
 * A positive number of bytes, 1 to LLONG_MAX: decimal digits with an optional binary
 * suffix, k or K (2^10), m or M (2^20), g or G (2^30): "4096", "64k", "1m", "2G".
 */
static inline int parse_bytes(const char *s, long long *out) {
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
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
    /* The bound is checked before the shift, so the product cannot wrap. */
    if (*end != '\0' || v < 1 || v > ((unsigned long long)LLONG_MAX >> shift))
        return -1;
    *out = (long long)(v << shift);
    return 0;
}

#endif
