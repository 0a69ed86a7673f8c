/*
 * fuzz_k8s_decode.c -- libFuzzer target for the Kubernetes object decoder:
 * any byte string must decode or fail with a message, never crash or leak.
 * Decoded claims are also written back as YAML (model/k8s_emit.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "model/k8s_decode.h"
#include "model/k8s_emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    k8s_objects o;
    strbuf err = {0};
    k8s_objects_init(&o);
    if (k8s_decode_mem(&o, "fuzz.yaml", (const char *)data, size, &err) == 0) {
        arena a = {0};
        strbuf out = {0};
        for (size_t i = 0; i < o.claims.len; i++) ydump(&out, k8s_emit_claim(&a, o.claims.data[i], NULL));
        sb_free(&out);
        arena_free(&a);
    } else if (err.len == 0) {
        __builtin_trap();   /* every failure must explain itself */
    }
    sb_free(&err);
    k8s_objects_free(&o);
    return 0;
}
