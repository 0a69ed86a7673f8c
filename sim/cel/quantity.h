/*
 * quantity.h -- Kubernetes resource.Quantity: parsing with the exact rules of
 * k8s.io/apimachinery (rounding up to 10^-9, BinarySI cap, int64 fast path vs
 * inf.Dec fallback), exact comparison, add/sub, and canonical formatting.
 *
 * A quantity is a value type (no heap): value = mant * 10^exp10, exactly.
 */
#ifndef DRASIM_CEL_QUANTITY_H
#define DRASIM_CEL_QUANTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { QF_DECIMAL_SI = 0, QF_BINARY_SI, QF_DECIMAL_EXPONENT } quantity_format;

typedef struct quantity {
    __extension__ __int128 mant;   /* signed mantissa */
    int32_t exp10;                 /* decimal exponent, >= -9 after parsing */
    uint8_t format;                /* quantity_format */
    uint8_t is_dec;                /* upstream would hold it as inf.Dec (affects isInteger/asInteger) */
} quantity;

/* Parse `s` (length n). Returns 0 on success; on failure returns -1 and sets
 * *err to a static message worded as upstream's error. */
int quantity_parse(const char *s, size_t n, quantity *out, const char **err);

/* Build an integer quantity, as resource.NewQuantity(v, format). */
quantity quantity_from_int64(int64_t v, quantity_format f);

/* Exact comparison: <0, 0, >0. Format-independent. */
int quantity_cmp(const quantity *a, const quantity *b);

/* a+b and a-b with upstream's format rule (zero receiver takes the other's format).
 * Returns 0, or -1 if the result leaves the representable range. */
int quantity_add(const quantity *a, const quantity *b, quantity *out);
int quantity_sub(const quantity *a, const quantity *b, quantity *out);

/* Canonical text (String()): largest suffix of the same family, no fraction.
 * Writes at most n bytes including NUL; returns the length it needed. */
size_t quantity_format_str(const quantity *q, char *buf, size_t n);

/* AsInt64: false for inf.Dec-backed values and negative scales, as upstream. */
bool quantity_as_int64(const quantity *q, int64_t *out);
double quantity_approx_float(const quantity *q);
int quantity_sign(const quantity *q);

/* Value rounded up to an integer number of milli-units / units, saturating at
 * INT64 limits; for simulator bookkeeping (cpu millicores, bytes, counters). */
int64_t quantity_milli_value(const quantity *q);
int64_t quantity_value(const quantity *q);

#endif
