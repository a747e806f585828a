// The header is the target's point; SwiftPM wants one source file to build a C target.
#include "fuzz_driver.h"
