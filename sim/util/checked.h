/*
 * checked.h -- int64 arithmetic that cannot overflow (signed overflow is
 * undefined behaviour in C): sums saturate at the int64 range, as quantities
 * do when parsed (quantity_value of 1e30 is INT64_MAX).
 */
#ifndef DRASIM_UTIL_CHECKED_H
#define DRASIM_UTIL_CHECKED_H

#include <stdint.h>

/* a + b, saturated to the int64 range. */
static inline int64_t i64_add_sat(int64_t a, int64_t b) {
    int64_t r;
    if (!__builtin_add_overflow(a, b, &r)) return r;
    return b > 0 ? INT64_MAX : INT64_MIN;
}

/* a * b, saturated to the int64 range. */
static inline int64_t i64_mul_sat(int64_t a, int64_t b) {
    int64_t r;
    if (!__builtin_mul_overflow(a, b, &r)) return r;
    return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
}

#endif
