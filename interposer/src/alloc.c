/*
 * alloc.c: the interposer's allocations, and a switch that makes them fail.
 *
 * RATIONALE: running out of memory on one rank is the failure most likely to make ranks
 * disagree (one stops following a file, the others wait for it in a reduction). The
 * tests turn this switch on for one rank (IOTUNER_FAULT_ALLOC, read in core.c) to prove
 * that every such path is agreed and nothing hangs. Off, it costs one branch.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>

static unsigned long fail_countdown; /* 0: never fail; 1: the next allocation fails */
static unsigned long allocations;    /* made since the switch was last set */

void iot__alloc_fail_from(unsigned long n) {
    fail_countdown = n;
    allocations = 0;
}

unsigned long iot__alloc_count(void) {
    return allocations;
}

static int alloc_fails(void) {
    allocations++;
    if (fail_countdown == 0)
        return 0;
    if (fail_countdown > 1) {
        fail_countdown--;
        return 0;
    }
    return 1; /* stays at 1: every later allocation fails too */
}

void *iot__malloc(size_t size) {
    return alloc_fails() ? NULL : malloc(size);
}

void *iot__calloc(size_t count, size_t size) {
    return alloc_fails() ? NULL : calloc(count, size);
}

void *iot__realloc(void *ptr, size_t size) {
    return alloc_fails() ? NULL : realloc(ptr, size);
}

char *iot__strdup(const char *s) {
    return alloc_fails() ? NULL : strdup(s);
}
