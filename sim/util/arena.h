/*
 * arena.h -- bump allocator for objects that live and die together (a
 * decoded YAML file, a scenario, a run). arena_free releases everything.
 */
#ifndef DRASIM_UTIL_ARENA_H
#define DRASIM_UTIL_ARENA_H
#include <stddef.h>
typedef struct arena_block arena_block;
typedef struct arena { arena_block *head; } arena;
void *arena_alloc(arena *a, size_t n);           /* zeroed, 16-byte aligned */
void *arena_memdup(arena *a, const void *p, size_t n);
char *arena_strndup(arena *a, const char *s, size_t n);
void arena_free(arena *a);
/* Forget every object but keep one block for reuse (scratch arenas). */
void arena_reset(arena *a);
#define ARENA_NEW(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))
#endif
