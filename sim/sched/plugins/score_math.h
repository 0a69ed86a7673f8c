/*
 * score_math.h -- integer arithmetic where quantities meet scores, without
 * overflow. kube-scheduler computes (capacity - requested) * 100 / capacity
 * in int64, which wraps for capacities above ~82 Pi (memory in bytes); a
 * node with 100 Pi of memory then scored negative and every pod went
 * elsewhere. Here the products are formed in 128 bits, so the score is the
 * exact value upstream computes whenever upstream does not overflow, and the
 * correct one when it would.
 */
#ifndef DRASIM_SCHED_SCORE_MATH_H
#define DRASIM_SCHED_SCORE_MATH_H

#include <stdint.h>

#include "util/checked.h"

__extension__ typedef __int128 score_i128;

/* floor(a * b / c) for c > 0, saturated to the int64 range. */
static inline int64_t score_mul_div(int64_t a, int64_t b, int64_t c) {
    score_i128 r = (score_i128)a * b / c;
    return r > INT64_MAX ? INT64_MAX : r < INT64_MIN ? INT64_MIN : (int64_t)r;
}

/* a + b, saturated to the int64 range. */
static inline int64_t score_add_sat(int64_t a, int64_t b) { return i64_add_sat(a, b); }

#endif
