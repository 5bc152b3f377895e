// FuzzDriver: libFuzzer's driver entry, declared for the fuzz targets (see FuzzDriver.c).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
