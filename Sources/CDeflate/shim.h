// libdeflate: deflate, gzip and CRC-32 over whole buffers in memory, for the pages compressed on
// every response (Gzip.compress(_:level:reusing:)).
#include <libdeflate.h>
