// Heap statistics for the (l) memory measurement: glibc's mallinfo2, which Swift's Glibc
// module does not import.
#include <stddef.h>

/// Bytes currently allocated by malloc (glibc `mallinfo2().uordblks`), chunk overhead included.
size_t cheapstats_heap_in_use(void);
