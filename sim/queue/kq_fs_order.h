/*
 * kq_fs_order.h -- the fair-sharing order of a cycle's heads (kq_fs_order.c).
 */
#ifndef DRASIM_QUEUE_KQ_FS_ORDER_H
#define DRASIM_QUEUE_KQ_FS_ORDER_H

#include "queue/kq.h"

typedef struct kq_fs_entry {         /* a ClusterQueue head and its nominated usage */
    kq_node *cq;
    const kq_usage *usage;
    size_t nusage;
    int32_t priority;
    int64_t order;                   /* queue-order timestamp */
} kq_fs_entry;

/* The next entry to process among e[0..n) not `done`: the first one's tree
 * decides (a ClusterQueue without a cohort goes first as it is); SIZE_MAX
 * when all are done. */
size_t kq_fs_next(kq_snapshot *s, const kq_fs_entry *e, size_t n, const bool *done);

#endif
