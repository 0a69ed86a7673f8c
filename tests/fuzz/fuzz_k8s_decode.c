/*
 * fuzz_k8s_decode.c -- libFuzzer target for the Kubernetes object decoder:
 * any byte string must decode or fail with a message, never crash or leak.
 * Decoded claims are also written back as YAML (model/k8s_emit.h), and small
 * inputs (few devices, so the search stays short) go through the allocator
 * with every feature on.
 */
#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
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
        size_t ndev = 0;
        for (size_t i = 0; i < o.slices.len; i++) ndev += o.slices.data[i]->ndevices;
        if (ndev <= 12 && o.claims.len <= 4) {
            alloc_features f;
            strbuf e2 = {0};
            alloc_features_parse("AdminAccess,PrioritizedList,PartitionableDevices,DeviceTaints,"
                                 "ConsumableCapacity,DeviceBindingAndStatus", &f, &e2);
            alloc_state_builder sb = {0};
            k8s_resource_claim *to_allocate[4];
            size_t n = 0;
            for (size_t i = 0; i < o.claims.len; i++) {
                if (o.claims.data[i]->allocated) alloc_state_add_claim(&sb, o.claims.data[i], true);
                else to_allocate[n++] = o.claims.data[i];
            }
            allocator *A = allocator_new(&f, o.slices.data, o.slices.len, o.classes.data, o.classes.len, &sb.st, 7);
            k8s_allocation res[4];
            uint64_t steps;
            alloc_status st = allocator_allocate(A, o.nodes.len ? o.nodes.data[0] : NULL, to_allocate, n, &a, res, &steps, &e2);
            if ((st == ALLOC_ERROR || st == ALLOC_NODE_ERROR) && e2.len == 0) __builtin_trap();
            if (st == ALLOC_OK)
                for (size_t i = 0; i < n; i++) ydump(&out, k8s_emit_claim(&a, to_allocate[i], &res[i]));
            allocator_free(A);
            alloc_state_builder_free(&sb);
            sb_free(&e2);
            sb_free(&out);
        }
        arena_free(&a);
    } else if (err.len == 0) {
        __builtin_trap();   /* every failure must explain itself */
    }
    sb_free(&err);
    k8s_objects_free(&o);
    return 0;
}
