#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's own entry point (compiler-rt, FuzzerInterface.h), linked in by -sanitize=fuzzer:
// `wishlist-fuzz` runs libFuzzer from its own main, once it has picked its target by name.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
