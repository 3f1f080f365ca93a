/*
 * number_check: the trace writer's numbers (iot__buf_g9) against printf's "%.9g".
 *
 *   number_check [N [SEED]]   compares N random doubles (default 1,000,000) and a list of
 *                             hard cases, and prints one line:
 *                             number_check: values=<compared> differ=<how many>
 *                             after, for up to 20 that differ,, for up to 20 that differ, the
 * value's bits and both texts.
 *
 * The random doubles mix every bit pattern (every exponent, subnormals, infinities, NaN),
 * the range a trace writes (1e-19 to 1e9), dyadic fractions (exact decimal ties), and
 * values next to powers of ten. Exit status: 0 when none differ, 1 otherwise, 2 for a
 * usage error.
 */
#include "reader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 88172645463325252ULL;

static uint64_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static double from_bits(uint64_t bits) {
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static unsigned long compared, differ;

static void check(double v) {
    char want[64];
    struct iot_buf b = {0};
    snprintf(want, sizeof want, "%.9g", v);
    iot__buf_g9(&b, v);
    compared++;
    if (!b.data || strcmp(b.data, want) != 0) {
        if (++differ <= 20) {
            uint64_t bits;
            memcpy(&bits, &v, sizeof bits);
            printf("differ: bits=0x%016" PRIx64 " printf=%s writer=%s\n", bits, want,
                   b.data ? b.data : "(nothing)");
        }
    }
    iot__buf_free(&b);
}

int main(int argc, char **argv) {
    unsigned long n = 1000000;
    if (argc > 3 || (argc > 1 && sscanf(argv[1], "%lu", &n) != 1) ||
        (argc > 2 && sscanf(argv[2], "%" SCNu64, &state) != 1) || state == 0) {
        fprintf(stderr, "usage: number_check [N [SEED]] (N >= 0, SEED > 0)\n");
        return 2;
    }
    static const double hard[] = {0.0,
                                  -0.0,
                                  1.0,
                                  -1.0,
                                  0.5,
                                  2.5,
                                  12345678.25,
                                  1234567.125,
                                  100000000.5,
                                  100000001.5,
                                  999999999.5,
                                  999999999.4,
                                  1e9,
                                  1e-4,
                                  9.9999999995e-5,
                                  1e-5,
                                  0.0001,
                                  123456789.0,
                                  1e-19,
                                  1e-20,
                                  5e-324,
                                  1.7976931348623157e308,
                                  0.1,
                                  0.2,
                                  0.3,
                                  1.0 / 3.0,
                                  2.0 / 3.0,
                                  9.99999999e8,
                                  9.999999995e8};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++)
        check(hard[i]);
    for (unsigned long i = 0; i < n; i++) {
        uint64_t r = next();
        switch (i % 5) {
        case 0: /* any bit pattern */
            check(from_bits(r));
            break;
        case 1: { /* the trace's range: mantissa and exponent at random */
            int e = (int)(next() % 95) - 65; /* 2^-65 (~3e-20) to 2^29 (~5e8) */
            check(__builtin_ldexp((double)((r >> 12) | ((uint64_t)1 << 52)), e - 52));
            break;
        }
        case 2: /* dyadic fractions: their decimal expansions end, some on a tie */
            check((double)(r >> (11 + next() % 30)) / (double)((uint64_t)1 << (next() % 40)));
            break;
        case 3: { /* next to a power of ten */
            static const double tens[] = {1e-19, 1e-12, 1e-9, 1e-6, 1e-5, 1e-4,
                                          1e-3,  1e-1,  1.0,  10.0, 1e3,  1e8};
            double t = tens[r % (sizeof tens / sizeof tens[0])];
            uint64_t bits;
            memcpy(&bits, &t, sizeof bits);
            check(from_bits(bits + (next() % 2001) - 1000));
            break;
        }
        default: /* what a trace holds: durations in ticks times a rate, sums over counts */
            check((double)(r % 100000000) * 3.57e-10);
            break;
        }
    }
    printf("number_check: values=%lu differ=%lu\n", compared, differ);
    return differ ? 1 : 0;
}
