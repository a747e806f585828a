// glibc's allocator tuning (mallopt, M_MMAP_THRESHOLD, malloc_trim), which the Glibc module does not export.
#include <malloc.h>
