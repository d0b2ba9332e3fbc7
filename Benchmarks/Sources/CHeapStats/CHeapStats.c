#include "CHeapStats.h"
#include <malloc.h>

size_t cheapstats_heap_in_use(void) {
#if defined(__GLIBC__)
    return mallinfo2().uordblks;
#else
    return 0;
#endif
}
